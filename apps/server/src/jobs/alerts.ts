import { runAlerts, type AlertDeps } from '../modules/saved/alerts.ts';
import type { Job } from './job.ts';

/** Saved searches' alerts and saved cars' notices (decision 010), every ALERT_INTERVAL_MS. */
export function alertJob(
  deps: AlertDeps,
  intervalMs: number,
): Job<Awaited<ReturnType<typeof runAlerts>>> {
  return { name: 'alert run', intervalMs, run: (stopping) => runAlerts(deps, stopping) };
}
