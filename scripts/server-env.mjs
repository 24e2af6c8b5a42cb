/**
 * The environment a server process starts with, beside the operator's own: `npm start` gives it
 * to the server it runs, and `bench:api` to the servers it measures (decision 021).
 *
 * glibc's malloc gives every thread that allocates its own arena (up to eight per core) and keeps
 * what was freed in it for that thread. Node's and V8's worker threads (garbage collection,
 * compilation, the libuv pool) and libvips' (the demo photos) each keep theirs: 115 MB of the
 * bench's embedded server sat in such arenas between two figures, 45-62 MB with two. An
 * operator's own value wins; other C libraries ignore the variable.
 */
export function serverEnv(env = process.env) {
  return { ...env, MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || '2' };
}
