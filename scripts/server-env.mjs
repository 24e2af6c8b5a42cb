/**
 * The environment a server process starts with, beside the operator's own: `npm start` gives it
 * to the server it runs, and the benches to the servers they measure (decision 021).
 *
 * glibc's malloc gives every thread that allocates its own arena (up to eight per core) and keeps
 * what was freed in it for that thread. Node's and V8's worker threads (garbage collection,
 * compilation, the libuv pool) each keep theirs: about 115 MB of an idle embedded server's RSS sat
 * in such arenas, against about 45 MB with two. An operator's own value wins; other C libraries
 * ignore the variable.
 */
export function serverEnv(env = process.env) {
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || '2' };
}
