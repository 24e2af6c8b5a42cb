import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type Tx } from '../../db/client.ts';

/*
 * Each address gets at most `perDay` alert mails (instant alerts, digests, saved-car notices) in
 * a UTC day (issue 29). The count is one alert_mail_day row per person and day, taken by one
 * upsert that locks the row, so every process counts on the same row; the alert worker takes
 * rows in user id order, so two workers never wait on each other in a cycle. Past the limit a
 * person's mail is held: their searches' matches stay unsent and their notices are listed on the
 * row, and all of it goes in one mail once the day is over (sendHeldAlerts in held-alerts.ts).
 */

/** Today as the limit counts days: in UTC, whatever the session's time zone. */
export const ALERT_DAY = sql`(now() at time zone 'UTC')::date`;

/** Counts one alert mail to `userId` today; false, counting nothing, once today's are spent. */
export async function takeAlertMail(tx: Tx, userId: string, perDay: number): Promise<boolean> {
  const counted = await queryRows<{ sent: number }>(
    tx,
    sql`insert into alert_mail_day as d (user_id, day, sent) values (${userId}, ${ALERT_DAY}, 1)
        on conflict (user_id, day) do update set sent = d.sent + 1 where d.sent < ${perDay}
        returning d.sent`,
  );
  return counted.length > 0;
}

/** Holds `userId`'s alert mail until the day is over, with a saved-car notice to tell then. */
export async function holdAlertMail(tx: Tx, userId: string, noticeId?: string): Promise<void> {
  const notices = noticeId ? sql`array[${noticeId}::uuid]` : sql`'{}'::uuid[]`;
  await tx.execute(
    sql`insert into alert_mail_day as d (user_id, day, held, held_notice_ids)
        values (${userId}, ${ALERT_DAY}, true, ${notices})
        on conflict (user_id, day) do update set held = true,
          held_notice_ids = d.held_notice_ids || excluded.held_notice_ids`,
  );
}

/** The person `userId` (a column) has no mail held: while they have, nothing goes alone. */
export const notHeld = (userId: SQL) =>
  sql`not exists (select 1 from alert_mail_day h where h.user_id = ${userId} and h.held)`;

/** Forgets the counts of days that are over and hold nothing. */
export async function forgetPastDays(db: Db): Promise<void> {
  await db.execute(sql`delete from alert_mail_day where day < ${ALERT_DAY} and not held`);
}
