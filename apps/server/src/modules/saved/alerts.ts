import { deliverQueuedMail } from '../mail/mail-queue.ts';
import { forgetPastDays } from './alert-allowance.ts';
import type { AlertDeps, Sent } from './alert-mail.ts';
import { matchNewCars } from './alert-matching.ts';
import { sendCarNotices } from './car-notices.ts';
import { sendHeldAlerts } from './held-alerts.ts';
import { sendDigests, sendInstantAlerts } from './search-alerts.ts';

export type { AlertDeps } from './alert-mail.ts';

/*
 * The alert worker (decision 010), run by every server process on a timer. Each step claims its
 * rows with FOR UPDATE SKIP LOCKED inside a transaction and marks them done before committing, so
 * any number of processes may run it at once and each alert goes out once.
 *   1. new cars (new_car_queue) are matched against every saved search in one statement per batch;
 *   2. mail held past a day's limit: one mail per person once that day is over;
 *   3. instant alerts: one mail per saved search with the cars it newly matched;
 *   4. daily digests: one mail per saved search a day, with all its new matches;
 *   5. saved-car notices (price went down, sold) to the people who saved the car.
 * Mail goes only to confirmed addresses (issue 29): what falls due while a person's address is
 * not confirmed is skipped, not kept for later, so confirming does not release a backlog. Each
 * address gets at most `mailsPerDay` of these mails a day; the rest waits for step 2.
 * Each step has its file: alert-matching.ts (1), held-alerts.ts (2), search-alerts.ts (3, 4) and
 * car-notices.ts (5); alert-mail.ts holds what they share.
 */

/**
 * Every step once; answers what each did. `stopping` (the server is closing) is checked between
 * batches: each batch commits on its own, and what is left waits for the next run, anywhere.
 */
export async function runAlerts(deps: AlertDeps, stopping: () => boolean = () => false) {
  let matched = 0;
  while (!stopping()) {
    const batch = await matchNewCars(deps.db);
    if (batch === 0) break;
    matched += batch;
  }
  // Held mail first: a day's held matches go in its one mail, not in the new day's alerts.
  const held = await untilDone(() => sendHeldAlerts(deps), stopping);
  const instant = await untilDone(() => sendInstantAlerts(deps), stopping);
  const digests = await untilDone(() => sendDigests(deps), stopping);
  const notices = await untilDone(() => sendCarNotices(deps), stopping);
  if (!stopping()) await forgetPastDays(deps.db);
  const delivered = await deliverQueuedMail(deps.db, deps.mailer, deps.log, stopping);
  return { matched, held, instant, digests, notices, delivered };
}

/** Runs a sending step until it claims nothing more (or stopping); answers the mails queued. */
async function untilDone(step: () => Promise<Sent>, stopping: () => boolean) {
  let sent = 0;
  while (!stopping()) {
    const done = await step();
    if (done.claimed === 0) break;
    sent += done.sent;
  }
  return sent;
}
