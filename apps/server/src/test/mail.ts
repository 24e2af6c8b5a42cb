import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import { readOutbox, type OutboxEntry } from '../adapters/mail.ts';
import type { TestClient } from './client.ts';

/** What `look` finds, asked every 25 ms; fails with `missing()` after `timeoutMs`. */
async function waitUntil<T>(
  look: () => Promise<T | undefined>,
  timeoutMs: number,
  missing: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(missing());
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The mail to `to` whose subject matches, once the server has written it to its outbox: account
 * mail goes out after the answer (so answers take as long whether or not an address has an
 * account), so a test waits for it. Fails after `timeoutMs`.
 */
export async function waitForMail(
  app: { outboxDir: string },
  to: string,
  subject: RegExp,
  timeoutMs = 5000,
): Promise<OutboxEntry> {
  return waitUntil(
    async () =>
      (await readOutbox(app.outboxDir)).findLast(
        (mail) => mail.to.toLowerCase() === to.toLowerCase() && subject.test(mail.subject),
      ),
    timeoutMs,
    () => `no mail to ${to} about ${subject} came`,
  );
}

/**
 * Waits until the mail queue has sent everything that is due or being sent (mail a transaction
 * queued goes out just after it commits), so a test can count what was sent; mail waiting for a
 * later try after a failure is not waited for. Fails after `timeoutMs`.
 */
export async function queuedMailSent(
  app: { database: { db: Db } },
  timeoutMs = 5000,
): Promise<void> {
  let left = 0;
  await waitUntil(
    async () => {
      const [row] = await queryRows<{ n: number }>(
        app.database.db,
        // Due, or claimed and being sent (no error yet); not waiting for a later try.
        sql`select count(*)::int as n from mail_queue
          where failed_at is null and (send_after <= now() or last_error is null)`,
      );
      left = row!.n;
      return left === 0 ? true : undefined;
    },
    timeoutMs,
    () => `${left} queued mails were not sent`,
  );
}

/** Every mail to `to` so far, oldest first. */
export async function mailsTo(app: { outboxDir: string }, to: string): Promise<OutboxEntry[]> {
  return (await readOutbox(app.outboxDir)).filter(
    (mail) => mail.to.toLowerCase() === to.toLowerCase(),
  );
}

/** The first link in a mail, as a path and query to request from the test server. */
export function linkIn(mail: OutboxEntry): URL {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in the mail "${mail.subject}"`);
  return new URL(match[0]);
}

/**
 * Whether a mail is the address confirmation every sign-up sends: tests that count the mail a
 * person gets for something else leave it out.
 */
export const isSignUpMail = (mail: { subject: string }) =>
  mail.subject === 'Confirm your CarMarket email address';

/**
 * Confirms a person's address as they would, by opening the link mailed at sign-up in their own
 * browser (nothing to do when it is confirmed already): alert and message mail go only to
 * confirmed addresses.
 */
export async function confirmAddress(
  app: { outboxDir: string; database: { db: Db } },
  person: TestClient & { account: { email: string } },
): Promise<void> {
  const [row] = await queryRows<{ confirmed: boolean }>(
    app.database.db,
    sql`select email_verified as confirmed from "user"
        where lower(email) = ${person.account.email.toLowerCase()} and deleted_at is null`,
  );
  if (row?.confirmed) return;
  const link = linkIn(
    await waitForMail(app, person.account.email, /^Confirm your CarMarket email/),
  );
  const opened = await person.get(link.pathname + link.search);
  if (opened.status !== 302) throw new Error(`confirming failed: ${opened.status}`);
}
