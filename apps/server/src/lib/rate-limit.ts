import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { AppError } from './errors.ts';

/** Counts hits in fixed windows. Shared between processes when backed by Redis. */
export interface CounterStore {
  /** Adds one hit to `key` and answers the count in the current window and when it ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /** Takes back one hit (an attempt reserved and then not spent). */
  undo(key: string): Promise<void>;
  /**
   * Takes one of `limit` slots under `key` (work in progress; give it back with `release`) and
   * answers its token, or null when all are taken. Each slot lapses `ttlMs` after it was taken,
   * so one a crashed process never gave back is not kept forever.
   */
  acquire(key: string, limit: number, ttlMs: number): Promise<string | null>;
  release(key: string, token: string): Promise<void>;
  reset(key: string): Promise<void>;
  /**
   * Marks each of `keys` for `ttlMs`, the lot in one step, and answers for each whether it is
   * new: not marked (and unlapsed) before, by this call or any other. A mark is not a count:
   * marking again changes nothing (car views: "first view today", decision 027).
   */
  claim(keys: string[], ttlMs: number): Promise<boolean[]>;
  /** Throws when the store does not answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** What a caller sees while the shared counters are unreachable: a 503, never a 500. */
export const countersUnavailable = () =>
  new AppError(
    503,
    'unavailable',
    'Signing in is unavailable for a moment. Please try again shortly.',
    { retryAfterSeconds: 30 },
  );

/**
 * A 429 for a spent limit, with Retry-After: the seconds until its window ends (at least 1).
 * `message` may use those seconds ("try again in 3 minutes").
 */
export function tooManyRequests(
  resetAt: number,
  message: string | ((retryAfterSeconds: number) => string),
): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  return new AppError(
    429,
    'too-many-requests',
    typeof message === 'string' ? message : message(retryAfterSeconds),
    { retryAfterSeconds },
  );
}

/** At most `max` hits of `key` in a window of `windowMs`; `message` is the 429's sentence. */
export interface Limit {
  key: string;
  max: number;
  windowMs: number;
  message: string | ((retryAfterSeconds: number) => string);
}

/** Gives back the counts an attempt took; a failure to give back only leaves them spent. */
export type GiveBack = () => Promise<void>;

export const nothingToGiveBack: GiveBack = async () => {};

/**
 * The one rate-limit primitive (sign-in, sign-up, mail, messages): counts one attempt against
 * each limit in order before it is made, so parallel requests cannot all slip under a limit.
 * It stops at the first spent limit: its count and those before it go back and its 429 is
 * thrown, and the limits after it are not touched, so a flood refused on its address's limit
 * does not raise the account's (decision 012; put the narrowest limit first). Else it answers
 * how to give the counts back (an attempt refused or failed afterwards need not count).
 * `unavailable` words the 503 while the shared counters are away.
 */
export async function spend(
  counters: CounterStore,
  limits: Limit[],
  options: { unavailable?: string } = {},
): Promise<GiveBack> {
  const taken: string[] = [];
  const giveBack: GiveBack = async () => {
    await Promise.all(taken.map((key) => counters.undo(key))).catch(() => undefined);
  };
  for (const limit of limits) {
    let state: { count: number; resetAt: number };
    try {
      state = await counters.hit(limit.key, limit.windowMs);
    } catch (error) {
      await giveBack();
      if (options.unavailable && error instanceof AppError && error.statusCode === 503) {
        throw new AppError(503, 'unavailable', options.unavailable, { retryAfterSeconds: 30 });
      }
      throw error;
    }
    taken.push(limit.key);
    if (state.count > limit.max) {
      await giveBack();
      throw tooManyRequests(state.resetAt, limit.message);
    }
  }
  return giveBack;
}

/** Runs a counted attempt; when it throws (refused or failed), the counts go back. */
export async function orGiveBack<T>(giveBack: GiveBack, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    await giveBack();
    throw error;
  }
}

/** A wait in words, for a 429's sentence: "40 seconds", "12 minutes", "9 hours". */
export function formatWait(seconds: number): string {
  const words = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (seconds < 60) return words(seconds, 'second');
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? words(minutes, 'minute') : words(Math.ceil(minutes / 60), 'hour');
}

export function createMemoryCounterStore(): CounterStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  /** Per key, the slots taken: token -> when it lapses. */
  const slots = new Map<string, Map<string, number>>();
  const held = (key: string) => {
    const taken = slots.get(key) ?? new Map<string, number>();
    const now = Date.now();
    for (const [token, until] of taken) if (until <= now) taken.delete(token);
    return taken;
  };
  const current = (key: string) => {
    const entry = windows.get(key);
    if (entry && entry.resetAt > Date.now()) return entry;
    windows.delete(key);
    return undefined;
  };
  // Forget lapsed windows now and then, so memory does not grow with every IP ever seen.
  const sweeper = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of windows) if (entry.resetAt <= now) windows.delete(key);
    for (const key of slots.keys()) if (held(key).size === 0) slots.delete(key);
  }, 60_000);
  sweeper.unref();
  return {
    async hit(key, windowMs) {
      const entry = current(key) ?? { count: 0, resetAt: Date.now() + windowMs };
      entry.count += 1;
      windows.set(key, entry);
      return { ...entry };
    },
    async undo(key) {
      const entry = current(key);
      if (entry && entry.count > 0) entry.count -= 1;
    },
    async acquire(key, limit, ttlMs) {
      const taken = held(key);
      if (taken.size >= limit) return null;
      const token = randomUUID();
      taken.set(token, Date.now() + ttlMs);
      slots.set(key, taken);
      return token;
    },
    async release(key, token) {
      const taken = slots.get(key);
      taken?.delete(token);
      if (taken?.size === 0) slots.delete(key);
    },
    async reset(key) {
      windows.delete(key);
    },
    async claim(keys, ttlMs) {
      const resetAt = Date.now() + ttlMs;
      return keys.map((key) => {
        if (current(key)) return false;
        windows.set(key, { count: 1, resetAt });
        return true;
      });
    },
    async ping() {},
    async close() {
      clearInterval(sweeper);
    },
  };
}

export function createRedisCounterStore(
  url: string,
  onError: (error: Error) => void = () => {},
): CounterStore {
  const redis = new Redis(url, {
    // While Redis is down a command fails within a second or so, and the caller answers 503.
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
  // Reported once per outage, not once per reconnection attempt.
  let down = false;
  redis.on('error', (error) => {
    if (!down) onError(error);
    down = true;
  });
  redis.on('ready', () => {
    down = false;
  });
  const prefix = 'carmarket:rl:';
  const guarded = <T>(work: () => Promise<T>): Promise<T> =>
    work().catch(() => {
      throw countersUnavailable();
    });
  return {
    hit: (key, windowMs) =>
      guarded(async () => {
        const results = await redis
          .multi()
          .incr(prefix + key)
          .pexpire(prefix + key, windowMs, 'NX')
          .pttl(prefix + key)
          .exec();
        for (const [error] of results ?? []) if (error) throw error;
        const count = Number(results?.[0]?.[1] ?? 1);
        const ttl = Number(results?.[2]?.[1] ?? windowMs);
        return { count, resetAt: Date.now() + Math.max(ttl, 0) };
      }),
    undo: (key) =>
      guarded(async () => {
        // Only a live window is taken back from; a lapsed one is already gone.
        await redis.eval(
          "if redis.call('exists', KEYS[1]) == 1 then return redis.call('decr', KEYS[1]) end return 0",
          1,
          prefix + key,
        );
      }),
    acquire: (key, limit, ttlMs) =>
      guarded(async () => {
        // A sorted set of the slots taken, each scored by when it lapses; checked and taken in
        // one step, so two processes cannot both take the last slot.
        const token = randomUUID();
        const now = Date.now();
        const taken = await redis.eval(
          `redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
          if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
          redis.call('zadd', KEYS[1], ARGV[3], ARGV[4])
          redis.call('pexpire', KEYS[1], ARGV[5])
          return 1`,
          1,
          prefix + key,
          now,
          limit,
          now + ttlMs,
          token,
          ttlMs,
        );
        return taken === 1 ? token : null;
      }),
    release: (key, token) =>
      guarded(async () => {
        await redis.zrem(prefix + key, token);
      }),
    reset: (key) =>
      guarded(async () => {
        await redis.del(prefix + key);
      }),
    claim: (keys, ttlMs) =>
      guarded(async () => {
        // One command for the lot (a pipeline of SETs cost the process a command object each):
        // SET NX sets only a key that is not there.
        const fresh = (await redis.eval(
          `local fresh = {}
          for i, key in ipairs(KEYS) do
            fresh[i] = redis.call('set', key, '1', 'PX', ARGV[1], 'NX') and 1 or 0
          end
          return fresh`,
          keys.length,
          ...keys.map((key) => prefix + key),
          ttlMs,
        )) as number[];
        return fresh.map((answer) => answer === 1);
      }),
    async ping() {
      await redis.ping();
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
