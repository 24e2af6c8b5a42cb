import { pruneEvents } from '../modules/messages/live-events.ts';
import {
  EVENT_DAYS,
  runMessageMail,
  type MessageMailDeps,
} from '../modules/messages/message-mail.ts';
import type { Job } from './job.ts';

const HOUR_MS = 60 * 60_000;

/**
 * "New message" mail (decision 015), every ALERT_INTERVAL_MS; once an hour it also prunes live
 * events older than a week.
 */
export function messageMailJob(deps: MessageMailDeps, intervalMs: number): Job {
  let prunedAt = 0;
  return {
    name: 'message mail run',
    intervalMs,
    async run(stopping = () => false) {
      const prune = Date.now() - prunedAt > HOUR_MS;
      if (prune) prunedAt = Date.now();
      await runMessageMail(deps, stopping);
      if (prune && !stopping()) await pruneEvents(deps.db, EVENT_DAYS);
    },
  };
}
