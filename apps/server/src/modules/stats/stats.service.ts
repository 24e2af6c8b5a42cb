import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { holdsRole, type Stats } from '@carmarket/shared';
import { queryRows, type Db } from '../../db/client.ts';
import { booking, listing, user } from '../../db/schema.ts';
import type { SessionUser } from '../../plugins/auth.ts';

async function countBy(
  db: Db,
  column: SQL | typeof booking.status,
  from: SQL,
  where: SQL | undefined,
) {
  const rows = await queryRows<{ key: string; count: number }>(
    db,
    sql`select ${column} as key, count(*)::int as count from ${from} ${where ? sql`where ${where}` : sql``} group by 1`,
  );
  return Object.fromEntries(rows.map((row) => [row.key ?? 'none', Number(row.count)]));
}

// A booking refunded after a dispute is no sale: it is `refunded`, not `paid`, and its car went
// back to its seller, withdrawn (decision 044), so the figures count both by their own status.
const bookingStatus = sql`${booking.status}`;
const carStatus = sql`${listing.status}`;

/** Paid bookings per day over the last 30 days, zero days included; refunded ones are left out. */
async function dailySales(db: Db, filter: SQL | undefined) {
  const rows = await queryRows<{ day: string; count: number; amount: string | number }>(
    db,
    sql`
    select to_char(d.day, 'YYYY-MM-DD') as day,
           count(b.id)::int as count,
           coalesce(sum(b.price_cents), 0)::bigint as amount
    from generate_series(date_trunc('day', now() at time zone 'utc') - interval '29 days',
                         date_trunc('day', now() at time zone 'utc'), interval '1 day') as d(day)
    left join (
      select ${booking.id} as id, ${booking.priceCents} as price_cents, ${booking.paidAt} as paid_at
      from ${booking} join ${listing} on ${listing.id} = ${booking.listingId}
      where ${booking.status} = 'paid' ${filter ? sql`and ${filter}` : sql``}
    ) as b on date_trunc('day', b.paid_at at time zone 'utc') = d.day
    group by d.day order by d.day`,
  );
  return rows.map((row) => ({
    day: row.day,
    count: Number(row.count),
    amountCents: Number(row.amount),
  }));
}

/**
 * What the dashboard home shows: a buyer's bookings, a seller's cars and sales, everything for
 * admins. An account that both buys and sells sees its selling (its orders have their own page).
 */
export async function statsFor(db: Db, actor: SessionUser, currency: string): Promise<Stats> {
  const empty = {};
  if (holdsRole(actor.roles, 'admin')) {
    const [bookingsByStatus, listingsByStatus, usersByRole, sales] = await Promise.all([
      countBy(db, bookingStatus, sql`${booking}`, undefined),
      countBy(db, carStatus, sql`${listing}`, undefined),
      // Someone holding two roles counts under each.
      countBy(
        db,
        sql`held.role`,
        sql`${user} left join lateral unnest(${user.roles}) as held(role) on true`,
        isNull(user.deletedAt),
      ),
      dailySales(db, undefined),
    ]);
    return {
      role: 'admin',
      currency,
      bookingsByStatus,
      listingsByStatus,
      usersByRole,
      sales,
      spentCents: 0,
    };
  }
  if (holdsRole(actor.roles, 'Seller')) {
    const own = eq(listing.sellerId, actor.id);
    const [bookingsByStatus, listingsByStatus, sales] = await Promise.all([
      countBy(
        db,
        bookingStatus,
        sql`${booking} join ${listing} on ${listing.id} = ${booking.listingId}`,
        own,
      ),
      countBy(db, carStatus, sql`${listing}`, and(own, sql`${listing.status} <> 'removed'`)),
      dailySales(db, own),
    ]);
    return {
      role: 'Seller',
      currency,
      bookingsByStatus,
      listingsByStatus,
      usersByRole: empty,
      sales,
      spentCents: 0,
    };
  }
  const mine = eq(booking.buyerId, actor.id);
  const [bookingsByStatus, sales, [spent]] = await Promise.all([
    countBy(db, bookingStatus, sql`${booking}`, mine),
    dailySales(db, mine),
    db
      .select({ cents: sql<number>`coalesce(sum(${booking.priceCents}), 0)::bigint` })
      .from(booking)
      .where(and(mine, eq(booking.status, 'paid'))),
  ]);
  return {
    role: holdsRole(actor.roles, 'Buyer') ? 'Buyer' : null,
    currency,
    bookingsByStatus,
    listingsByStatus: empty,
    usersByRole: empty,
    sales,
    spentCents: Number(spent?.cents ?? 0),
  };
}
