import { sql } from 'drizzle-orm';
import { formatMoney } from '@carmarket/shared';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import { ON_SALE_SQL } from '../../db/schema.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Mailer, MailMessage } from '../../plugins/mail.ts';
import { deliverQueuedMail, queueMail } from '../mail/mail-queue.ts';
import { haversineM } from '../search/search.service.ts';
import { carMatchKeysSql } from './saved-searches.service.ts';
import type { Unsubscribe, UnsubscribeTokens } from './unsubscribe.ts';

/*
 * The alert worker (decision 010), run by every server process on a timer. Each step claims its
 * rows with FOR UPDATE SKIP LOCKED inside a transaction and marks them done before committing, so
 * any number of processes may run it at once and each alert goes out once.
 *   1. new cars (new_car_queue) are matched against every saved search in one statement per batch;
 *   2. instant alerts: one mail per saved search with the cars it newly matched;
 *   3. daily digests: one mail per saved search a day, with all its new matches;
 *   4. saved-car notices (price went down, sold) to the people who saved the car.
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
  const instant = await untilDone(() => sendInstantAlerts(deps), stopping);
  const digests = await untilDone(() => sendDigests(deps), stopping);
  const notices = await untilDone(() => sendCarNotices(deps), stopping);
  const delivered = await deliverQueuedMail(deps.db, deps.mailer, deps.log, stopping);
  return { matched, instant, digests, notices, delivered };
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

const searchesToTell = (tx: Tx, ids: string[]) =>
  queryRows<SearchToTell>(
    tx,
    sql`select s.id, s.name, s.query, u.email, u.name as person
        from saved_search s join "user" u on u.id = s.user_id
        where s.id = any(${uuids(ids)}) and u.deleted_at is null`,
  );

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

/** Queues mail of the claimed searches' unsent matches, then marks them sent. */
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
  const sent = await mailMatches(deps, tx, pairs, kind);
  await markNotified(tx, pairs);
  return sent;
}

async function mailMatches(
  deps: AlertDeps,
  tx: Tx,
  pairs: { search_id: string; listing_id: string }[],
  kind: 'instant' | 'daily',
): Promise<number> {
  const cars = await carsOf(tx, pairs);
  const searches = await searchesToTell(tx, [...new Set(cars.map((car) => car.search_id))]);
  const site = deps.siteOrigin();
  let sent = 0;
  for (const search of searches) {
    const found = cars.filter((car) => car.search_id === search.id);
    if (found.length === 0) continue;
    const lines = found.map(
      (car) =>
        `- ${car.car_name}, ${car.year}, ${formatMoney(car.price_cents, car.currency)}, ${car.location}\n  ${site}/listing/${car.listing_id}`,
    );
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
  return sent;
}

/** Price drops and sales of saved cars, to each person who saved the car and wants such mail. */
export async function sendCarNotices(deps: AlertDeps): Promise<Sent> {
  return deps.db.transaction(async (tx) => {
    const notices = await queryRows<{
      id: string;
      listing_id: string;
      kind: 'price-drop' | 'sold';
      old_price_cents: number | null;
      new_price_cents: number | null;
    }>(
      tx,
      sql`select id, listing_id, kind, old_price_cents::float8 as old_price_cents,
            new_price_cents::float8 as new_price_cents
          from car_notice where sent_at is null order by created_at limit ${SEND_BATCH}
          for update skip locked`,
    );
    if (notices.length === 0) return { claimed: 0, sent: 0 };
    const site = deps.siteOrigin();
    let sent = 0;
    for (const notice of notices) {
      const people = await queryRows<{
        user_id: string;
        email: string;
        name: string;
        car_name: string;
        currency: string;
        on_sale: boolean;
      }>(
        tx,
        sql`select u.id as user_id, u.email, u.name, l.name as car_name, l.currency,
              l.${ON_SALE_SQL} as on_sale
            from saved_car c
            join "user" u on u.id = c.user_id
            join listing l on l.id = c.listing_id
            where c.listing_id = ${notice.listing_id}
              and u.deleted_at is null
              and not exists (select 1 from mail_opt_out o where o.user_id = u.id and o.kind = 'saved-cars')`,
      );
      for (const person of people) {
        // A price drop is news while the car can still be bought.
        if (notice.kind === 'price-drop' && !person.on_sale) continue;
        const link = `${site}/listing/${notice.listing_id}`;
        const message =
          notice.kind === 'sold'
            ? {
                subject: `Sold: ${person.car_name}`,
                text: `The ${person.car_name} you saved has been sold.\n\nYour saved cars: ${site}/dashboard/saved`,
              }
            : {
                subject: `Price drop: ${person.car_name}`,
                text: `The ${person.car_name} you saved now costs ${formatMoney(notice.new_price_cents!, person.currency)} (was ${formatMoney(notice.old_price_cents!, person.currency)}).\n\n${link}`,
              };
        await queueAlert(
          tx,
          deps,
          { kind: 'saved-cars', userId: person.user_id },
          {
            to: person.email,
            subject: message.subject,
            text: `Hello ${person.name},\n\n${message.text}`,
          },
        );
        sent += 1;
      }
    }
    await tx.execute(
      sql`update car_notice set sent_at = now() where id = any(${uuids(notices.map((row) => row.id))})`,
    );
    return { claimed: notices.length, sent };
  });
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
  const stop =
    what.kind === 'search' ? 'Stop alerts for this search' : 'Stop mail about saved cars';
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
