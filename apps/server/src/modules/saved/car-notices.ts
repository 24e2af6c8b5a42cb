import { sql, type SQL } from 'drizzle-orm';
import { formatMoney } from '@carmarket/shared';
import { queryRows, type Tx } from '../../db/client.ts';
import { ON_SALE_SQL } from '../../db/schema.ts';
import { holdAlertMail, takeAlertMail } from './alert-allowance.ts';
import { queueAlert, SEND_BATCH, uuids, type AlertDeps, type Sent } from './alert-mail.ts';

/* Step 5 of the alert worker (alerts.ts): saved-car notices (price went down, sold, back on sale). */

export interface NoticeToTell {
  notice_id: string;
  user_id: string;
  email: string;
  person: string;
  kind: 'price-drop' | 'sold' | 'back-on-sale';
  old_price_cents: number | null;
  new_price_cents: number | null;
  listing_id: string;
  car_name: string;
  currency: string;
}

/**
 * The people owed the notices `which` names: who saved the car, with a confirmed address, and
 * wants such mail; in user id order, the order the day's counts are taken in.
 */
export const noticesToTell = (tx: Tx, which: SQL) =>
  queryRows<NoticeToTell>(
    tx,
    sql`select n.id as notice_id, u.id as user_id, u.email, u.name as person, n.kind,
          n.old_price_cents::float8 as old_price_cents, n.new_price_cents::float8 as new_price_cents,
          l.id as listing_id, l.name as car_name, l.currency
        from car_notice n
        join saved_car c on c.listing_id = n.listing_id
        join "user" u on u.id = c.user_id
        join listing l on l.id = n.listing_id
        where ${which} and u.deleted_at is null and u.email_verified
          -- A price drop or a return is news while the car can still be bought.
          and (n.kind = 'sold' or l.${ON_SALE_SQL})
          and not exists (select 1 from mail_opt_out o where o.user_id = u.id and o.kind = 'saved-cars')
        order by u.id, n.created_at`,
  );

/** What a notice says: a mail of its own, or a line of the mail held past a day's limit. */
export function noticeNews(site: string, notice: NoticeToTell) {
  const link = `${site}/listing/${notice.listing_id}`;
  switch (notice.kind) {
    case 'sold':
      return {
        subject: `Sold: ${notice.car_name}`,
        text: `The ${notice.car_name} you saved has been sold.\n\nYour saved cars: ${site}/dashboard/saved`,
        line: `- Sold: ${notice.car_name}`,
      };
    case 'back-on-sale':
      return {
        subject: `Back on sale: ${notice.car_name}`,
        text: `The ${notice.car_name} you saved is on sale again: its seller put it back.\n\n${link}`,
        line: `- Back on sale: ${notice.car_name}\n  ${link}`,
      };
    case 'price-drop':
      return {
        subject: `Price drop: ${notice.car_name}`,
        text: `The ${notice.car_name} you saved now costs ${formatMoney(notice.new_price_cents!, notice.currency)} (was ${formatMoney(notice.old_price_cents!, notice.currency)}).\n\n${link}`,
        line: `- Price drop: ${notice.car_name} now costs ${formatMoney(notice.new_price_cents!, notice.currency)} (was ${formatMoney(notice.old_price_cents!, notice.currency)})\n  ${link}`,
      };
  }
}

/**
 * Price drops, sales and returns of saved cars, to each person who saved the car and wants such
 * mail.
 */
export async function sendCarNotices(deps: AlertDeps): Promise<Sent> {
  return deps.db.transaction(async (tx) => {
    const notices = await queryRows<{ id: string }>(
      tx,
      sql`select id from car_notice where sent_at is null order by created_at limit ${SEND_BATCH}
          for update skip locked`,
    );
    if (notices.length === 0) return { claimed: 0, sent: 0 };
    const ids = uuids(notices.map((row) => row.id));
    const site = deps.siteOrigin();
    let sent = 0;
    for (const notice of await noticesToTell(tx, sql`n.id = any(${ids})`)) {
      if (!(await takeAlertMail(tx, notice.user_id, deps.mailsPerDay))) {
        await holdAlertMail(tx, notice.user_id, notice.notice_id);
        continue;
      }
      const news = noticeNews(site, notice);
      await queueAlert(
        tx,
        deps,
        { kind: 'saved-cars', userId: notice.user_id },
        {
          to: notice.email,
          subject: news.subject,
          text: `Hello ${notice.person},\n\n${news.text}`,
        },
      );
      sent += 1;
    }
    await tx.execute(sql`update car_notice set sent_at = now() where id = any(${ids})`);
    return { claimed: notices.length, sent };
  });
}
