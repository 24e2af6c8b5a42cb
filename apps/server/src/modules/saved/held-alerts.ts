import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client.ts';
import { ALERT_DAY, takeAlertMail } from './alert-allowance.ts';
import { queueAlert, SEND_BATCH, uuids, type AlertDeps, type Sent } from './alert-mail.ts';
import { noticeNews, noticesToTell } from './car-notices.ts';
import { carLine, carsOf, markNotified, searchesToTell } from './search-alerts.ts';

/* Step 2 of the alert worker (alerts.ts): mail held past a day's limit. */

/**
 * Mail held past a day's limit, once that day is over: one mail per person with their searches'
 * unsent matches and the saved-car notices held for them. It is one of the new day's mails, so
 * no address gets more than the limit in any day; if the new day has none left, it waits.
 */
export async function sendHeldAlerts(deps: AlertDeps): Promise<Sent> {
  return deps.db.transaction(async (tx) => {
    const days = await queryRows<{ user_id: string; day: string; notice_ids: string[] }>(
      tx,
      sql`select d.user_id, d.day::text as day, d.held_notice_ids::text[] as notice_ids
          from alert_mail_day d
          where d.held and d.day < ${ALERT_DAY}
            and not exists (select 1 from alert_mail_day t where t.user_id = d.user_id
              and t.day = ${ALERT_DAY} and t.sent >= ${deps.mailsPerDay})
          order by d.user_id, d.day limit ${SEND_BATCH}
          for update of d skip locked`,
    );
    let sent = 0;
    for (const userId of new Set(days.map((row) => row.user_id))) {
      const held = days.filter((row) => row.user_id === userId);
      const outcome = await mailHeld(deps, tx, userId, held);
      if (outcome === 'waits') continue;
      if (outcome === 'sent') sent += 1;
      await tx.execute(
        sql`delete from alert_mail_day where user_id = ${userId}
            and day::text = any(${`{${held.map((row) => row.day).join(',')}}`}::text[])`,
      );
    }
    return { claimed: days.length, sent };
  });
}

/** Queues one person's held mail and marks its matches sent; answers what became of it. */
async function mailHeld(
  deps: AlertDeps,
  tx: Tx,
  userId: string,
  days: { day: string; notice_ids: string[] }[],
): Promise<'sent' | 'nothing' | 'waits'> {
  // The searches' rows first, as the instant and daily steps lock them before any count.
  const searches = await queryRows<{ id: string }>(
    tx,
    sql`select id from saved_search where user_id = ${userId} and alerts <> 'off'
        order by id for update`,
  );
  const pairs = searches.length
    ? await queryRows<{ search_id: string; listing_id: string }>(
        tx,
        sql`select search_id, listing_id from saved_search_match
            where notified_at is null and search_id = any(${uuids(searches.map((row) => row.id))})`,
      )
    : [];
  const cars = pairs.length ? await carsOf(tx, pairs) : [];
  const told = await searchesToTell(tx, [...new Set(cars.map((car) => car.search_id))]);
  const noticeIds = days.flatMap((row) => row.notice_ids);
  const notices = noticeIds.length
    ? await noticesToTell(tx, sql`n.id = any(${uuids(noticeIds)}) and u.id = ${userId}`)
    : [];
  const person = told[0] ?? notices[0];
  if (person) {
    if (!(await takeAlertMail(tx, userId, deps.mailsPerDay))) return 'waits';
    const site = deps.siteOrigin();
    const day = new Date(`${days[0]!.day}T12:00:00Z`).toLocaleDateString('en-US', {
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    const sections = told.map((search) => {
      const found = cars.filter((car) => car.search_id === search.id);
      return [
        `"${search.name}": ${found.length === 1 ? 'a new car' : `${found.length} new cars`}`,
        ...found.map((car) => carLine(site, car)),
        `See them all: ${site}/cars?${search.query}`,
      ].join('\n');
    });
    if (notices.length > 0) {
      const lines = notices.map((notice) => noticeNews(site, notice).line);
      sections.push(['Your saved cars:', ...lines].join('\n'));
    }
    // Cars, not matches: one car found by three searches is one new car.
    const count = new Set(
      cars
        .filter((car) => told.some((search) => search.id === car.search_id))
        .map((car) => car.listing_id),
    ).size;
    await queueAlert(
      tx,
      deps,
      { kind: 'alerts', userId },
      {
        to: person.email,
        subject:
          count > 0
            ? `The rest of your car alerts from ${day}: ${count} new`
            : `The rest of your car alerts from ${day}`,
        text: [
          `Hello ${person.person},`,
          '',
          `We send at most ${deps.mailsPerDay} alert mails a day to one address. You reached that on ${day}, so here is the rest in one mail.`,
          '',
          sections.join('\n\n'),
          '',
          `Choose which searches mail you: ${site}/dashboard/searches`,
        ].join('\n'),
      },
    );
  }
  if (pairs.length > 0) await markNotified(tx, pairs);
  return person ? 'sent' : 'nothing';
}
