import { formatMoney, type Role, type Stats } from '@carmarket/shared';
import { lazy } from 'react';
import { Link } from 'react-router';

import { Figure, Figures } from '../../../components/ui/figures';
import { PageState } from '../../../components/ui/page-state';
import { LoadedWhenHydrated } from '../../../lib/use-hydrated';
import { useStats } from '../api/get-stats';
import { BarChart, type Bar } from './bar-chart';
import { SalesChart } from './sales-chart';

// Admins only, and after the page: its code stays out of the dashboard home's chunk, and the
// server's render of the home asks for nothing more.
const MoneyOverview = lazy(() => import('./money-overview'));

const BOOKING_STATUSES = [
  ['pending', 'Awaiting payment'],
  ['paid', 'Paid'],
  ['refunded', 'Refunded'],
  ['cancelled', 'Cancelled'],
  ['closed', 'Closed'],
] as const;

const LISTING_STATUSES = [
  ['available', 'On sale'],
  ['reserved', 'Reserved'],
  ['sold', 'Sold'],
  ['withdrawn', 'Withdrawn'],
] as const;

const ROLES = [
  ['Buyer', 'Buyers'],
  ['Seller', 'Sellers'],
  ['admin', 'Administrators'],
  ['none', 'No role yet'],
] as const;

// Rare cases (refunded after a dispute, accounts with no role yet): a bar only when there are some.
const SHOWN_WHEN_SOME = new Set(['refunded', 'none']);

/** Bars in a fixed order, so that charts read the same from one visit to the next. */
function barsOf(counts: Record<string, number>, labels: readonly (readonly [string, string])[]) {
  return labels
    .filter(([key]) => !SHOWN_WHEN_SOME.has(key) || (counts[key] ?? 0) > 0)
    .map(([key, label]): Bar => ({ label, value: counts[key] ?? 0 }));
}

const sum = (counts: Record<string, number>) =>
  Object.values(counts).reduce((total, value) => total + value, 0);

function BuyerOverview({ stats }: { stats: Stats }) {
  const bookings = stats.bookingsByStatus;
  return (
    <>
      <Figures>
        <Figure
          label="Total spent"
          value={formatMoney(stats.spentCents, stats.currency)}
          hint="On cars you have paid for"
        />
        <Figure label="Bookings" value={sum(bookings)} />
        <Figure
          label="Awaiting payment"
          value={bookings.pending ?? 0}
          hint={
            (bookings.pending ?? 0) > 0 ? (
              <Link to="/dashboard/orders" className="text-link">
                Pay in My Orders
              </Link>
            ) : undefined
          }
        />
        <Figure label="Paid" value={bookings.paid ?? 0} />
      </Figures>
      <BarChart title="Your bookings by status" bars={barsOf(bookings, BOOKING_STATUSES)} />
    </>
  );
}

function salesTotal(stats: Stats) {
  return stats.sales.reduce((total, point) => total + point.amountCents, 0);
}

function SellerOverview({ stats }: { stats: Stats }) {
  const cars = stats.listingsByStatus;
  const bookings = stats.bookingsByStatus;
  return (
    <>
      <Figures>
        <Figure label="Cars on sale" value={cars.available ?? 0} />
        <Figure label="Cars sold" value={cars.sold ?? 0} />
        <Figure label="Open bookings" value={bookings.pending ?? 0} hint="Buyers yet to pay" />
        <Figure
          label="Sales, last 30 days"
          value={formatMoney(salesTotal(stats), stats.currency)}
        />
      </Figures>
      <div className="grid gap-4 lg:grid-cols-2">
        <BarChart title="Your cars by status" bars={barsOf(cars, LISTING_STATUSES)} />
        <BarChart
          title="Bookings of your cars"
          bars={barsOf(bookings, BOOKING_STATUSES)}
          tone="secondary"
        />
      </div>
      <SalesChart
        title="Your sales over the last 30 days"
        sales={stats.sales}
        currency={stats.currency}
      />
    </>
  );
}

function AdminOverview({ stats }: { stats: Stats }) {
  const users = stats.usersByRole;
  const cars = stats.listingsByStatus;
  return (
    <>
      <Figures>
        <Figure label="Users" value={sum(users)} />
        <Figure label="Cars on sale" value={cars.available ?? 0} />
        <Figure label="Paid bookings" value={stats.bookingsByStatus.paid ?? 0} />
        <Figure
          label="Sales, last 30 days"
          value={formatMoney(salesTotal(stats), stats.currency)}
        />
      </Figures>
      <LoadedWhenHydrated
        fallback={<div aria-hidden="true" className="h-88 rounded-box bg-base-200 sm:h-64" />}
      >
        <MoneyOverview />
      </LoadedWhenHydrated>
      <div className="grid gap-4 lg:grid-cols-2">
        <BarChart title="Users by role" bars={barsOf(users, ROLES)} tone="secondary" />
        <BarChart
          title="Cars by status"
          bars={barsOf(cars, [...LISTING_STATUSES, ['removed', 'Removed']])}
        />
      </div>
      <SalesChart
        title="Sales over the last 30 days"
        sales={stats.sales}
        currency={stats.currency}
      />
    </>
  );
}

/**
 * The dashboard home's pictures, from `GET /api/stats`: a buyer's bookings and spending, a
 * seller's cars, bookings and sales, and for admins the whole marketplace.
 */
export function RoleOverview({ roles }: { roles: readonly Role[] }) {
  const stats = useStats(roles);
  // An account with no role yet has no overview: nothing shows, not even the heading.
  if (stats.data?.role === null) return null;

  return (
    <section
      aria-labelledby="overview-title"
      aria-busy={stats.isPending || undefined}
      className="mt-10"
    >
      <h2 id="overview-title" className="text-2xl font-bold tracking-tight">
        Overview
      </h2>
      <div className="mt-4 grid gap-4">
        <PageState
          query={stats}
          loading="Loading your overview…"
          skeleton={
            <div aria-hidden="true" className="grid gap-4">
              <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
                {[0, 1, 2, 3].map((index) => (
                  <div key={index} className="h-28 animate-pulse rounded-box bg-base-200" />
                ))}
              </div>
              <div className="h-64 animate-pulse rounded-box bg-base-200" />
            </div>
          }
          what="your overview"
        >
          {(data) =>
            data.role === 'admin' ? (
              <AdminOverview stats={data} />
            ) : data.role === 'Seller' ? (
              <SellerOverview stats={data} />
            ) : (
              <BuyerOverview stats={data} />
            )
          }
        </PageState>
      </div>
    </section>
  );
}

export default RoleOverview;
