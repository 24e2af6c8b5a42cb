import { sql, type SQL } from 'drizzle-orm';
import { formatMoney } from '@carmarket/shared';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import { ON_SALE_SQL } from '../../db/schema.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from '../../adapters/mail.ts';
import { deliverQueuedMail, queueMail } from '../mail/mail-queue.ts';
import { haversineM } from '../search/search.service.ts';
import {
  ALERT_DAY,
  forgetPastDays,
  holdAlertMail,
  notHeld,
  takeAlertMail,
} from './alert-allowance.ts';
import { carMatchKeysSql } from './saved-searches.service.ts';
import type { Unsubscribe, UnsubscribeTokens } from './unsubscribe.ts';

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
 */

export interface AlertDeps {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The site's address, for links in mail. */
  siteOrigin: () => string;
  unsubscribe: UnsubscribeTokens;
  /** Hours between two digests of one saved search. */
  digestHours: number;
  /** Alert mails one address gets in a day (UTC); the rest goes in one mail after the day. */
  mailsPerDay: number;
}

/** What a sending step did: rows it claimed (it runs again while it claims some) and mails queued. */
type Sent = { claimed: number; sent: number };

/** Cars matched per statement; the queue drains in batches of this many. */
const MATCH_BATCH = 500;
/** Alerts claimed per transaction. */
const SEND_BATCH = 200;

/** Ids as one `uuid[]` parameter (one value however many ids, unlike an IN list). */
const uuids = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;
/** Pairs as a table: `unnest(search ids, car ids) as p(search_id, listing_id)`. */
const pairTable = (pairs: { search_id: string; listing_id: string }[]) =>
  sql`unnest(${uuids(pairs.map((p) => p.search_id))}, ${uuids(pairs.map((p) => p.listing_id))}) as p(search_id, listing_id)`;

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

/**
 * Takes a batch of queued cars and records every (saved search, car) pair that matches, with the
 * search call's own rules written over saved_search's columns (null is "any"). Searches and cars
 * meet on their match keys in one hash join (decision 010): the saved searches are read once per
 * batch, not once per car, and a car is checked only against searches naming its make (and model)
 * and those naming no make. Matches of searches with alerts off are recorded as already told.
 * Answers how many cars it took from the queue.
 */
export async function matchNewCars(db: Db, batch = MATCH_BATCH): Promise<number> {
  return db.transaction(async (tx) => {
    const taken = await queryRows<{ listing_id: string }>(
      tx,
      sql`delete from new_car_queue where listing_id in (
            select listing_id from new_car_queue order by queued_at limit ${batch}
            for update skip locked)
          returning listing_id`,
    );
    if (taken.length === 0) return 0;
    const distance = haversineM(sql`s.lat`, sql`s.lng`, sql`l.lat`, sql`l.lng`);
    // Both sides are expanded to their keys first (MATERIALIZED), so PostgreSQL meets them in one
    // hash join instead of pairing every search with every car and filtering.
    await tx.execute(sql.raw('set local jit = off'));
    await tx.execute(sql`
      with cars as materialized (
        select car.*, key from listing car
        cross join unnest(${sql.raw(carMatchKeysSql('car'))}) as key
        where car.id = any(${uuids(taken.map((row) => row.listing_id))}) and car.${ON_SALE_SQL}
      ), searches as materialized (
        select search.*, key from saved_search search cross join unnest(search.match_keys) as key
      )
      insert into saved_search_match (search_id, listing_id, notified_at)
      select s.id, l.id, case when s.alerts = 'off' then now() end
      from searches s join cars l on l.key = s.key
      where (s.category_id is null or l.category_id = s.category_id)
        and (s.makes is null or l.make = any(s.makes))
        and (s.models is null or l.model = any(s.models))
        and (s.body_types is null or l.body_type = any(s.body_types))
        and (s.fuels is null or l.fuel = any(s.fuels))
        and (s.transmissions is null or l.transmission = any(s.transmissions))
        and (s.conditions is null or l.condition = any(s.conditions))
        and (s.year_min is null or l.year >= s.year_min)
        and (s.year_max is null or l.year <= s.year_max)
        and (s.price_min is null or l.reprice_cents >= s.price_min)
        and (s.price_max is null or l.reprice_cents <= s.price_max)
        and (s.mileage_max is null or l.mileage_km <= s.mileage_max)
        and (s.text_query is null or l.search_doc @@ s.text_query)
        and (s.lat is null or (l.lat is not null and ${distance} <= s.radius_m))`);
    return taken.length;
  });
}

interface MatchedCar {
  search_id: string;
  listing_id: string;
  car_name: string;
  price_cents: number;
  currency: string;
  year: number;
  location: string;
}

interface SearchToTell {
  id: string;
  name: string;
  query: string;
  user_id: string;
  email: string;
  person: string;
}

const carsOf = (tx: Tx, pairs: { search_id: string; listing_id: string }[]) =>
  queryRows<MatchedCar>(
    tx,
    sql`select p.search_id, l.id as listing_id, l.name as car_name,
          l.reprice_cents::float8 as price_cents, l.currency, l.year, l.location
        from ${pairTable(pairs)}
        join listing l on l.id = p.listing_id
        where l.${ON_SALE_SQL}
        order by l.created_at`,
  );

/** The searches' owners who may be mailed (a confirmed address), in user id order. */
const searchesToTell = (tx: Tx, ids: string[]) =>
  queryRows<SearchToTell>(
    tx,
    sql`select s.id, s.name, s.query, u.id as user_id, u.email, u.name as person
        from saved_search s join "user" u on u.id = s.user_id
        where s.id = any(${uuids(ids)}) and u.deleted_at is null and u.email_verified
        order by u.id, s.created_at`,
  );

const carLine = (site: string, car: MatchedCar) =>
  `- ${car.car_name}, ${car.year}, ${formatMoney(car.price_cents, car.currency)}, ${car.location}\n  ${site}/listing/${car.listing_id}`;

const markNotified = (tx: Tx, pairs: { search_id: string; listing_id: string }[]) =>
  tx.execute(sql`update saved_search_match m set notified_at = now()
    from ${pairTable(pairs)}
    where m.search_id = p.search_id and m.listing_id = p.listing_id`);

/**
 * One mail per saved search with instant alerts, listing every car it newly matched. A run claims
 * searches (their rows, SKIP LOCKED), then all their unsent matches, so two processes never mail
 * the same search at once.
 */
export async function sendInstantAlerts(deps: AlertDeps): Promise<Sent> {
  return deps.db.transaction(async (tx) => {
    const due = await queryRows<{ id: string }>(
      tx,
      sql`select s.id from saved_search s
          where s.alerts = 'instant'
            and s.id in (select m.search_id from saved_search_match m where m.notified_at is null)
            and ${notHeld(sql`s.user_id`)}
          limit ${SEND_BATCH}
          for update of s skip locked`,
    );
    return {
      claimed: due.length,
      sent: due.length ? await mailUnsent(deps, tx, due, 'instant') : 0,
    };
  });
}

/** One mail a day per saved search with daily alerts and new matches, listing them all. */
export async function sendDigests(deps: AlertDeps): Promise<Sent> {
  return deps.db.transaction(async (tx) => {
    const due = await queryRows<{ id: string }>(
      tx,
      sql`select s.id from saved_search s
          where s.alerts = 'daily'
            and coalesce(s.last_digest_at, s.created_at) <= now() - make_interval(secs => ${deps.digestHours * 3600})
            and exists (select 1 from saved_search_match m where m.search_id = s.id and m.notified_at is null)
            and ${notHeld(sql`s.user_id`)}
          order by s.last_digest_at nulls first limit ${SEND_BATCH}
          for update of s skip locked`,
    );
    if (due.length === 0) return { claimed: 0, sent: 0 };
    const sent = await mailUnsent(deps, tx, due, 'daily');
    await tx.execute(
      sql`update saved_search set last_digest_at = now() where id = any(${uuids(due.map((row) => row.id))})`,
    );
    return { claimed: due.length, sent };
  });
}

/**
 * Queues mail of the claimed searches' unsent matches, then marks them sent: mailed, or skipped
 * (no car still on sale, an unconfirmed address). Those held past the day's limit stay unsent.
 */
async function mailUnsent(
  deps: AlertDeps,
  tx: Tx,
  searches: { id: string }[],
  kind: 'instant' | 'daily',
): Promise<number> {
  const pairs = await queryRows<{ search_id: string; listing_id: string }>(
    tx,
    sql`select search_id, listing_id from saved_search_match
        where notified_at is null and search_id = any(${uuids(searches.map((row) => row.id))})`,
  );
  if (pairs.length === 0) return 0;
  const { sent, held } = await mailMatches(deps, tx, pairs, kind);
  const told = pairs.filter((pair) => !held.has(pair.search_id));
  if (told.length > 0) await markNotified(tx, told);
  return sent;
}

async function mailMatches(
  deps: AlertDeps,
  tx: Tx,
  pairs: { search_id: string; listing_id: string }[],
  kind: 'instant' | 'daily',
): Promise<{ sent: number; held: Set<string> }> {
  const cars = await carsOf(tx, pairs);
  const searches = await searchesToTell(tx, [...new Set(cars.map((car) => car.search_id))]);
  const site = deps.siteOrigin();
  let sent = 0;
  const held = new Set<string>();
  const heldPeople = new Set<string>();
  for (const search of searches) {
    const found = cars.filter((car) => car.search_id === search.id);
    if (found.length === 0) continue;
    if (
      heldPeople.has(search.user_id) ||
      !(await takeAlertMail(tx, search.user_id, deps.mailsPerDay))
    ) {
      if (!heldPeople.has(search.user_id)) await holdAlertMail(tx, search.user_id);
      heldPeople.add(search.user_id);
      held.add(search.id);
      continue;
    }
    const lines = found.map((car) => carLine(site, car));
    const count = found.length === 1 ? 'A new car matches' : `${found.length} new cars match`;
    await queueAlert(
      tx,
      deps,
      { kind: 'search', id: search.id },
      {
        to: search.email,
        subject:
          kind === 'instant'
            ? `${count} "${search.name}"`
            : `Your daily cars for "${search.name}": ${found.length} new`,
        text: [
          `Hello ${search.person},`,
          '',
          `${count} your saved search "${search.name}":`,
          '',
          ...lines,
          '',
          `See them all: ${site}/cars?${search.query}`,
        ].join('\n'),
      },
    );
    sent += 1;
  }
  return { sent, held };
}

interface NoticeToTell {
  notice_id: string;
  user_id: string;
  email: string;
  person: string;
  kind: 'price-drop' | 'sold';
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
const noticesToTell = (tx: Tx, which: SQL) =>
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
          -- A price drop is news while the car can still be bought.
          and (n.kind = 'sold' or l.${ON_SALE_SQL})
          and not exists (select 1 from mail_opt_out o where o.user_id = u.id and o.kind = 'saved-cars')
        order by u.id, n.created_at`,
  );

const noticeNews = (site: string, notice: NoticeToTell) =>
  notice.kind === 'sold'
    ? {
        subject: `Sold: ${notice.car_name}`,
        text: `The ${notice.car_name} you saved has been sold.\n\nYour saved cars: ${site}/dashboard/saved`,
        line: `- Sold: ${notice.car_name}`,
      }
    : {
        subject: `Price drop: ${notice.car_name}`,
        text: `The ${notice.car_name} you saved now costs ${formatMoney(notice.new_price_cents!, notice.currency)} (was ${formatMoney(notice.old_price_cents!, notice.currency)}).\n\n${site}/listing/${notice.listing_id}`,
        line: `- Price drop: ${notice.car_name} now costs ${formatMoney(notice.new_price_cents!, notice.currency)} (was ${formatMoney(notice.old_price_cents!, notice.currency)})\n  ${site}/listing/${notice.listing_id}`,
      };

/** Price drops and sales of saved cars, to each person who saved the car and wants such mail. */
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

/** Queues one alert with its one-click unsubscribe link, in the text and in the headers (RFC 8058). */
async function queueAlert(
  tx: Tx,
  deps: AlertDeps,
  what: Unsubscribe,
  message: MailMessage,
): Promise<void> {
  const token = deps.unsubscribe.issue(what);
  const site = deps.siteOrigin();
  const stop = {
    search: 'Stop alerts for this search',
    'saved-cars': 'Stop mail about saved cars',
    alerts: 'Stop all alert mail',
  }[what.kind];
  await queueMail(tx, {
    ...message,
    text: `${message.text}\n\n${stop}: ${site}/unsubscribe?token=${token}`,
    headers: {
      'List-Unsubscribe': `<${site}/api/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
}

/** Runs the worker every `intervalMs` in this process, one run at a time, as background work. */
export function startAlertWorker(deps: AlertDeps, intervalMs: number, background: BackgroundWork) {
  background.every('alert run', intervalMs, () => runAlerts(deps, () => background.closing));
}
