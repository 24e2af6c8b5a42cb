import type { Db } from '../db/client.ts';
import {
  refreshPriceGuide,
  type RefreshResult,
} from '../modules/price-guide/price-guide.service.ts';
import type { Job } from './job.ts';

/**
 * The price guide's refresh (decision 032), at start and every PRICE_GUIDE_REFRESH_MINUTES. With
 * several processes, one refreshes per interval: a process skips while another holds the
 * refresh's lock, or when the fits are younger than most of an interval.
 */
export function priceGuideJob(db: Db, intervalMs: number): Job<RefreshResult> {
  return {
    name: 'price guide refresh',
    intervalMs,
    run: () => refreshPriceGuide(db, { freshForMs: intervalMs * 0.9 }),
  };
}
