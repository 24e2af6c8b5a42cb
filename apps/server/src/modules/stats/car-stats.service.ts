import { eq, sql } from 'drizzle-orm';
import type { CarStats } from '@carmarket/shared';
import { queryRows, type Db } from '../../db/client.ts';
import { booking, carViewDay, conversation, listing, savedCar } from '../../db/schema.ts';
import { statsFirstDay, statsSince, statsToday } from '../../lib/stats-window.ts';

/** The car whose stats are asked for: what the policy needs of it. */
export async function carForStats(db: Db, id: string) {
  const [car] = await db
    .select({ id: listing.id, sellerId: listing.sellerId, status: listing.status })
    .from(listing)
    .where(eq(listing.id, id));
  return car;
}

/**
 * What one car drew over the last CAR_STATS_DAYS UTC days, today included (CarStatsSchema):
 * views a day from the flushed counts (a view of the last few seconds shows after the next
 * flush), and the saves, conversations and bookings made in that window.
 */
export async function carStats(db: Db, carId: string): Promise<CarStats> {
  const [today, first, since] = [statsToday, statsFirstDay, statsSince];
  const [days, [counts]] = await Promise.all([
    queryRows<{ day: string; views: number }>(
      db,
      sql`select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(v.views, 0)::int as views
          from generate_series(${first}::timestamp, ${today}::timestamp, interval '1 day') as d(day)
          left join ${carViewDay} v on v.listing_id = ${carId} and v.day = d.day::date
          order by d.day`,
    ),
    queryRows<{ saves: number; conversations: number; bookings: number }>(
      db,
      sql`select
            (select count(*)::int from ${savedCar}
              where ${savedCar.listingId} = ${carId} and ${savedCar.createdAt} >= ${since}) as saves,
            (select count(*)::int from ${conversation}
              where ${conversation.listingId} = ${carId} and ${conversation.createdAt} >= ${since})
              as conversations,
            (select count(*)::int from ${booking}
              where ${booking.listingId} = ${carId} and ${booking.createdAt} >= ${since}) as bookings`,
    ),
  ]);
  const viewsByDay = days.map((row) => ({ day: row.day, views: Number(row.views) }));
  return {
    views: viewsByDay.reduce((sum, day) => sum + day.views, 0),
    saves: Number(counts?.saves ?? 0),
    conversations: Number(counts?.conversations ?? 0),
    bookings: Number(counts?.bookings ?? 0),
    viewsByDay,
  };
}
