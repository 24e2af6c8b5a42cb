import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import { mailQueue } from '../../db/schema.ts';
import type { Mailer, MailMessage } from '../../adapters/mail.ts';

/*
 * Mail that a transaction decides on (alerts, notices) is written into mail_queue by that
 * transaction and sent afterwards: the deciding work never waits on a mail server, and a mail
 * server's refusal never undoes it (decision 010). Sending is at least once: a worker claims a
 * mail by moving its send_after past the longest a send can take, so if the process dies mid-send
 * another worker sends it again once the claim runs out.
 */

/** Mails claimed at a time. */
const SEND_BATCH = 50;
/** How long a claim lasts: longer than nodemailer's slowest send (its socket timeout, 10 min). */
const CLAIM_MINUTES = 15;
/** Tries before a mail is given up on (the last about eight hours after the first). */
export const MAX_MAIL_ATTEMPTS = 10;

/** Writes mail to be sent once the transaction commits (one statement for them all). */
export async function queueMail(tx: Db | Tx, ...messages: MailMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await tx.insert(mailQueue).values(
    messages.map((message) => ({
      recipient: message.to,
      subject: message.subject,
      body: message.text,
      headers: message.headers ?? null,
    })),
  );
}

/** Minutes before try `attempt + 1`: 1, 2, 4 ... up to 6 hours. */
const retryAfterMinutes = (attempt: number) => Math.min(2 ** (attempt - 1), 360);

/**
 * Whether a mail server refused the mail for good: an SMTP 5xx answer (no such mailbox, policy).
 * A 4xx (mailbox busy, rate limited) or a lost connection is worth trying again.
 */
function refusedForGood(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * Sends the mail that is due, batch by batch, until none is or `stopping()` says so (checked
 * before each batch: other processes may keep queueing); answers how many went out.
 */
export async function deliverQueuedMail(
  db: Db,
  mailer: Mailer,
  log: FastifyBaseLogger,
  stopping: () => boolean = () => false,
): Promise<number> {
  let sent = 0;
  while (!stopping()) {
    // One statement, so the claim commits at once and no transaction waits on the mail server.
    const claimed = await queryRows<{
      id: string;
      recipient: string;
      subject: string;
      body: string;
      headers: Record<string, string> | null;
      attempts: number;
    }>(
      db,
      sql`update mail_queue set attempts = attempts + 1,
            send_after = now() + make_interval(mins => ${CLAIM_MINUTES})
          where id in (
            select id from mail_queue where failed_at is null and send_after <= now()
            order by send_after limit ${SEND_BATCH} for update skip locked)
          returning id, recipient, subject, body, headers, attempts`,
    );
    if (claimed.length === 0) return sent;
    for (const mail of claimed) {
      try {
        await mailer.send({
          to: mail.recipient,
          subject: mail.subject,
          text: mail.body,
          ...(mail.headers ? { headers: mail.headers } : {}),
        });
        // Each sent mail leaves the queue at once: a claim outlasts one send, not a batch of them.
        await db.delete(mailQueue).where(eq(mailQueue.id, mail.id));
        sent += 1;
      } catch (error) {
        const lastError = String((error as Error).message ?? error).slice(0, 1000);
        const givenUp = refusedForGood(error) || mail.attempts >= MAX_MAIL_ATTEMPTS;
        log.warn(
          { err: error, to: mail.recipient, subject: mail.subject, attempts: mail.attempts },
          givenUp ? 'mail given up on' : 'mail not sent; it will be tried again',
        );
        await db
          .update(mailQueue)
          .set(
            givenUp
              ? { failedAt: new Date(), lastError }
              : {
                  lastError,
                  sendAfter: sql`now() + make_interval(mins => ${retryAfterMinutes(mail.attempts)})`,
                },
          )
          .where(eq(mailQueue.id, mail.id));
      }
    }
  }
  return sent;
}

/**
 * Sends queued mail soon after the transaction that queued it commits (a booking's notices),
 * in this process, one run at a time: `kick` during a run asks for one more run after it, so
 * mail queued under load goes out in batches. Mail a run could not send waits for its retry,
 * which the workers' timed runs send (deliverQueuedMail), on any process. A run is background
 * work: closing stops it after its batch and waits for that (what is left is sent by the next
 * process that runs the queue).
 */
export function createMailSender(
  db: Db,
  mailer: Mailer,
  log: FastifyBaseLogger,
  background: BackgroundWork,
) {
  let running: Promise<void> | undefined;
  let again = false;
  const run = async () => {
    do {
      again = false;
      try {
        await deliverQueuedMail(db, mailer, log, () => background.closing);
      } catch (error) {
        log.error({ err: error }, 'sending queued mail failed');
      }
    } while (again && !background.closing);
    running = undefined;
  };
  return {
    kick(): void {
      if (running) again = true;
      else running = background.run('sending queued mail', run);
    },
  };
}

export type MailSender = ReturnType<typeof createMailSender>;

/**
 * Mail waiting to be sent and how long the oldest has waited (GET /metrics): one statement over
 * the queue's due index (mail that was given up on is not waiting).
 */
export async function mailQueueState(db: Db): Promise<{ depth: number; oldestSeconds: number }> {
  const [row] = await queryRows<{ depth: number; oldest: number | string | null }>(
    db,
    sql`select count(*)::int as depth,
          coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest
        from mail_queue where failed_at is null`,
  );
  return { depth: Number(row?.depth ?? 0), oldestSeconds: Number(row?.oldest ?? 0) };
}
