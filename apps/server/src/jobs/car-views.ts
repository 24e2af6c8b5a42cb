import type { Db } from '../db/client.ts';
import { pruneCarViews, type ViewCounter } from '../modules/stats/car-views.ts';
import type { Job } from './job.ts';

/** Writes the car views this process counted, every VIEW_FLUSH_SECONDS (decision 027). */
export function carViewFlushJob(counter: ViewCounter, intervalMs: number): Job<number> {
  return { name: 'car view flush', intervalMs, run: () => counter.flush() };
}

/** Deletes views of days the stats no longer show, every CLEANUP_INTERVAL_MINUTES. */
export function carViewPruneJob(db: Db, intervalMs: number): Job<number> {
  return { name: 'car view pruning', intervalMs, run: () => pruneCarViews(db) };
}
