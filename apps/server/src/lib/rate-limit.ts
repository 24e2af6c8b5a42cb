import { Redis } from 'ioredis';

/** Counts hits in fixed windows. Shared between processes when backed by Redis. */
export interface CounterStore {
  /** Adds one hit to `key` and answers the count in the current window and when it ends. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  /** The count in the current window without adding to it. */
  peek(key: string): Promise<{ count: number; resetAt: number }>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryCounterStore(): CounterStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
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
  }, 60_000);
  sweeper.unref();
  return {
    async hit(key, windowMs) {
      const entry = current(key) ?? { count: 0, resetAt: Date.now() + windowMs };
      entry.count += 1;
      windows.set(key, entry);
      return { ...entry };
    },
    async peek(key) {
      return { ...(current(key) ?? { count: 0, resetAt: Date.now() }) };
    },
    async reset(key) {
      windows.delete(key);
    },
    async close() {
      clearInterval(sweeper);
    },
  };
}

export function createRedisCounterStore(url: string): CounterStore {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
  const prefix = 'carmarket:rl:';
  return {
    async hit(key, windowMs) {
      const results = await redis
        .multi()
        .incr(prefix + key)
        .pexpire(prefix + key, windowMs, 'NX')
        .pttl(prefix + key)
        .exec();
      const count = Number(results?.[0]?.[1] ?? 1);
      const ttl = Number(results?.[2]?.[1] ?? windowMs);
      return { count, resetAt: Date.now() + Math.max(ttl, 0) };
    },
    async peek(key) {
      const [count, ttl] = await Promise.all([redis.get(prefix + key), redis.pttl(prefix + key)]);
      return { count: Number(count ?? 0), resetAt: Date.now() + Math.max(ttl, 0) };
    },
    async reset(key) {
      await redis.del(prefix + key);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
