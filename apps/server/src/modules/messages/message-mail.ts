import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Db } from '../../db/client.ts';
import type { Mailer } from '../../adapters/mail.ts';
import { deliverQueuedMail, queueMail } from '../mail/mail-queue.ts';

/*
 * "New message about <car>" (issue 16): to a member who has left a written message unread for a
 * few minutes, at most once an hour per conversation, and only about messages newer than their
 * last such mail. Every process runs it on a timer; a run claims conversation rows with
 * FOR UPDATE SKIP LOCKED and writes the mail into the mail queue in the same transaction that
 * marks the side mailed, so with any number of processes each mail is written once (as the
 * alert worker does, decision 010). The queue is then sent outside any transaction. Only a
 * confirmed address is mailed (issue 29): a mail owed to one not confirmed is skipped, not kept
 * for later (the wait ends as if mailed; the next message starts a new one).
 */

export interface MessageMailDeps {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  siteOrigin: () => string;
  /** Minutes a message waits unread before its mail. */
  delayMinutes: number;
}

/** At most one mail per conversation and person in this many minutes. */
export const MAIL_EVERY_MINUTES = 60;
/** Conversations claimed per transaction. */
const BATCH = 200;
/** Live events older than this are pruned (a stream away longer loads its lists again). */
export const EVENT_DAYS = 7;

type Side = 'buyer' | 'seller';

/** The condition under which a side is owed a mail; `c` is the conversation. */
const owed = (side: Side, delayMinutes: number) => {
  const column = (name: string) => sql.raw(`c.${side}_${name}`);
  return sql`(${column('unread')} > 0
    and ${column('unread_since')} <= now() - make_interval(secs => ${delayMinutes * 60})
    and (${column('mailed_at')} is null
      or (${column('mailed_at')} <= now() - make_interval(mins => ${MAIL_EVERY_MINUTES})
        and c.last_message_at > ${column('mailed_at')})))`;
};

/** One batch: claims conversations owing mail, queues it, marks them mailed. */
export async function queueMessageMail(deps: MessageMailDeps): Promise<{ claimed: number }> {
  return deps.db.transaction(async (tx) => {
    const due = await queryRows<{
      id: string;
      buyer_due: boolean;
      seller_due: boolean;
      buyer_unread: number;
      seller_unread: number;
      buyer_email: string;
      buyer_name: string;
      buyer_confirmed: boolean;
      seller_email: string;
      seller_name: string;
      seller_confirmed: boolean;
      car_name: string;
    }>(
      tx,
      sql`select c.id, ${owed('buyer', deps.delayMinutes)} as buyer_due,
            ${owed('seller', deps.delayMinutes)} as seller_due,
            c.buyer_unread, c.seller_unread, b.email as buyer_email, b.name as buyer_name,
            b.email_verified as buyer_confirmed, s.email as seller_email, s.name as seller_name,
            s.email_verified as seller_confirmed, l.name as car_name
          from conversation c
          join "user" b on b.id = c.buyer_id
          join "user" s on s.id = c.seller_id
          join listing l on l.id = c.listing_id
          where (${owed('buyer', deps.delayMinutes)} or ${owed('seller', deps.delayMinutes)})
            and b.deleted_at is null and s.deleted_at is null
          limit ${BATCH}
          for update of c skip locked`,
    );
    const site = deps.siteOrigin();
    for (const row of due) {
      for (const side of ['buyer', 'seller'] as const) {
        if (!(side === 'buyer' ? row.buyer_due : row.seller_due)) continue;
        if (!(side === 'buyer' ? row.buyer_confirmed : row.seller_confirmed)) {
          await tx.execute(
            sql`update conversation set ${sql.raw(`${side}_unread_since`)} = null where id = ${row.id}`,
          );
          continue;
        }
        const unread = side === 'buyer' ? row.buyer_unread : row.seller_unread;
        const [name, email, other] =
          side === 'buyer'
            ? [row.buyer_name, row.buyer_email, row.seller_name]
            : [row.seller_name, row.seller_email, row.buyer_name];
        await queueMail(tx, {
          to: email,
          subject: `New message about ${row.car_name}`,
          text: [
            `Hello ${name},`,
            '',
            `${other} sent you ${unread === 1 ? 'a message' : `${unread} messages`} about the ${row.car_name} on CarMarket.`,
            '',
            `Read and reply: ${site}/dashboard/messages/${row.id}`,
            '',
            `We mail you when a message waits unread for a few minutes, at most once an hour for each conversation.`,
          ].join('\n'),
        });
        // The next written message starts a new wait: mailed an hour later, it still waits its
        // few minutes, and may be read in them.
        await tx.execute(
          sql`update conversation set ${sql.raw(`${side}_mailed_at`)} = now(),
                ${sql.raw(`${side}_unread_since`)} = null
              where id = ${row.id}`,
        );
      }
    }
    return { claimed: due.length };
  });
}

/**
 * Every batch that is due, then the mail queue; answers how many conversations were mailed.
 * `stopping` (the server is closing) is checked between batches, each of which commits on its own.
 */
export async function runMessageMail(
  deps: MessageMailDeps,
  stopping: () => boolean = () => false,
): Promise<number> {
  let mailed = 0;
  while (!stopping()) {
    const batch = await queueMessageMail(deps);
    if (batch.claimed === 0) break;
    mailed += batch.claimed;
  }
  await deliverQueuedMail(deps.db, deps.mailer, deps.log, stopping);
  return mailed;
}
