import { sql } from 'drizzle-orm';
import { formatMoney } from '@carmarket/shared';
import { queryRows, type Tx } from '../../db/client.ts';
import { ON_SALE_SQL } from '../../db/schema.ts';
import { holdAlertMail, notHeld, takeAlertMail } from './alert-allowance.ts';
import {
  pairTable,
  queueAlert,
  SEND_BATCH,
  uuids,
  type AlertDeps,
  type Sent,
} from './alert-mail.ts';

/* Steps 3 and 4 of the alert worker (alerts.ts): instant alerts and daily digests. */

export interface MatchedCar {
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

export const carsOf = (tx: Tx, pairs: { search_id: string; listing_id: string }[]) =>
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
export const searchesToTell = (tx: Tx, ids: string[]) =>
  queryRows<SearchToTell>(
    tx,
    sql`select s.id, s.name, s.query, u.id as user_id, u.email, u.name as person
        from saved_search s join "user" u on u.id = s.user_id
        where s.id = any(${uuids(ids)}) and u.deleted_at is null and u.email_verified
        order by u.id, s.created_at`,
  );

export const carLine = (site: string, car: MatchedCar) =>
  `- ${car.car_name}, ${car.year}, ${formatMoney(car.price_cents, car.currency)}, ${car.location}\n  ${site}/listing/${car.listing_id}`;

export const markNotified = (tx: Tx, pairs: { search_id: string; listing_id: string }[]) =>
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
