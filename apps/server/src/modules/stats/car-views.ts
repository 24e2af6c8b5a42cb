import { sql } from 'drizzle-orm';
import { holdsRole } from '@carmarket/shared';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Db } from '../../db/client.ts';
import { carViewDay, listing } from '../../db/schema.ts';
import type { CounterStore } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/*
 * Views of cars' pages (issue 34, decision 027). A view is one signed-in person per car per UTC
 * day, never the car's seller or an admin. The car page's answer never waits on counting and no
 * view writes to the database: the shared counter store (Redis when configured, so processes
 * agree), asked about the views of the last 20 ms in one call, tells a viewer's first view of a
 * car today, which adds one to this process's buffer of (car, day) counts; the flush job writes
 * the buffer every VIEW_FLUSH_SECONDS as one upsert. Closing the server flushes what is left; a
 * crash loses at most the seconds since the last flush.
 */

/** Days of views kept: the stats show 30; the rest is slack for days near the edge. */
export const CAR_VIEW_DAYS_KEPT = 40;

/** Rows a single upsert writes: far below PostgreSQL's 65,535 parameters (3 a row). */
const ROWS_PER_UPSERT = 5000;

const DAY_MS = 86_400_000;

export interface ViewCounter {
  /**
   * The car page's hook: counts `viewer`'s view of `car`, unless they are its seller or an
   * admin, or saw it already today. Returns at once; the check runs after, with others.
   */
  viewed(car: { id: string; sellerId: string }, viewer: SessionUser): void;
  /**
   * Checks the views waiting, then writes every counted view to the database in one upsert (a
   * batch per 5,000 (car, day) rows). Answers how many views it wrote.
   */
  flush(): Promise<number>;
}

/** How long views wait to be checked together: one counter-store call (a Redis round trip). */
const CHECK_AFTER_MS = 20;
/** Views checked in one call at most. */
const CHECK_BATCH = 1000;

export function createViewCounter(deps: {
  db: Db;
  counters: CounterStore;
  log: Pick<FastifyBaseLogger, 'warn'>;
}): ViewCounter {
  const { db, counters, log } = deps;
  /** `${carId} ${day}` -> views counted and not yet written. */
  let buffer = new Map<string, number>();
  const add = (key: string, views: number) => buffer.set(key, (buffer.get(key) ?? 0) + views);
  /** Views not yet checked: the counter store's key and the buffer's. */
  let waiting: Array<{ mark: string; counted: string }> = [];
  let timer: NodeJS.Timeout | undefined;
  const checking = new Set<Promise<void>>();

  const check = () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    if (batch.length === 0) return;
    // A mark names its day, so it need only outlive it: it lapses a minute after midnight.
    const untilTomorrow = DAY_MS - (Date.now() % DAY_MS) + 60_000;
    const run = counters
      .claim(
        batch.map((view) => view.mark),
        untilTomorrow,
      )
      .then(
        (fresh) => fresh.forEach((first, i) => first && add(batch[i]!.counted, 1)),
        // Redis away (its outage is logged once by the store): these views go uncounted.
        () => undefined,
      )
      .finally(() => checking.delete(run));
    checking.add(run);
  };

  return {
    viewed(car, viewer) {
      if (car.sellerId === viewer.id || holdsRole(viewer.roles, 'admin')) return;
      const day = new Date().toISOString().slice(0, 10);
      waiting.push({ mark: `car-view:${day}:${car.id}:${viewer.id}`, counted: `${car.id} ${day}` });
      if (waiting.length >= CHECK_BATCH) check();
      else timer ??= setTimeout(check, CHECK_AFTER_MS);
    },

    async flush() {
      check();
      await Promise.all(checking);
      if (buffer.size === 0) return 0;
      const taken = buffer;
      buffer = new Map();
      // In key order, so two processes flushing at once lock the rows in one order.
      const rows = [...taken]
        .map(([key, views]) => {
          const [carId, day] = key.split(' ') as [string, string];
          return { carId, day, views };
        })
        .sort((a, b) =>
          a.carId === b.carId ? a.day.localeCompare(b.day) : a.carId < b.carId ? -1 : 1,
        );
      let written = 0;
      let next = 0;
      try {
        for (; next < rows.length; next += ROWS_PER_UPSERT) {
          const batch = rows.slice(next, next + ROWS_PER_UPSERT);
          const values = sql.join(
            batch.map((row) => sql`(${row.carId}::uuid, ${row.day}::date, ${row.views}::int)`),
            sql`, `,
          );
          // Joined with the cars: a car gone since (never, today) leaves its views out, not the batch.
          await queryRows(
            db,
            sql`insert into ${carViewDay} (listing_id, day, views)
                select v.listing_id, v.day, v.views
                from (values ${values}) as v(listing_id, day, views)
                join ${listing} on ${listing.id} = v.listing_id
                order by v.listing_id, v.day
                on conflict (listing_id, day) do update
                  set views = ${carViewDay.views} + excluded.views`,
          );
          written += batch.reduce((sum, row) => sum + row.views, 0);
        }
      } catch (error) {
        // Kept for the next flush: a database away for a moment loses no views.
        for (const row of rows.slice(next)) add(`${row.carId} ${row.day}`, row.views);
        log.warn({ err: error }, 'car views were not written; the next flush tries again');
        throw error;
      }
      return written;
    },
  };
}

/** Deletes the views of days older than CAR_VIEW_DAYS_KEPT (the cleanup job, hourly). */
export async function pruneCarViews(db: Db): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from ${carViewDay}
          where ${carViewDay.day} < (now() at time zone 'utc')::date - ${CAR_VIEW_DAYS_KEPT}::int
          returning 1)
        select count(*)::int as n from gone`,
  );
  return Number(rows[0]?.n ?? 0);
}
