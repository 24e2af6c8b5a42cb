import type { SellerProfile } from '@carmarket/shared';
import { holdsRole } from '@carmarket/shared';
import { Link, useParams } from 'react-router';

import { EmptyState, PageState } from '../../components/ui/page-state';
import { LoadMore } from '../../components/ui/load-more';
import { useSession } from '../../features/auth';
import { RequireBrowsing } from '../../features/auth/components/require-browsing';
import { ListingCardSkeleton } from '../../features/listings/components/listing-card';
import { VerifiedBadge } from '../../features/listings/components/verified-badge';
import { useSeller } from '../../features/sellers/api/get-seller';
import { useSellerCars } from '../../features/sellers/api/get-seller-cars';
import { SellerAvatar } from '../../features/sellers/components/seller-avatar';
import {
  carsText,
  memberSinceText,
  replyRateText,
  replyTimeText,
} from '../../features/sellers/components/seller-words';
import { ApiError } from '../../lib/api-client';
import { usePage } from '../../lib/page';
import { BookableCar } from './bookable-car';
import { NotFound } from './not-found';

function SellerHeader({ seller }: { seller: SellerProfile }) {
  const replies = [replyTimeText(seller.medianReplyMinutes), replyRateText(seller.replyRate)]
    .filter(Boolean)
    .join(' · ');
  return (
    <header className="flex flex-col gap-5 sm:flex-row sm:items-center" data-testid="seller-header">
      <SellerAvatar name={seller.name} photo={seller.photo} />
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <h1 className="text-3xl leading-tight font-extrabold tracking-tight break-words sm:text-4xl">
            {seller.name}
          </h1>
          {seller.verified && <VerifiedBadge />}
        </div>
        <p className="mt-2 text-muted">{memberSinceText(seller.memberSince)}</p>
        <ul className="mt-3 flex flex-wrap gap-2 text-sm font-semibold">
          <li className="rounded-box bg-base-200 px-3 py-1">
            {carsText(seller.carsOnSale, 'on sale')}
          </li>
          <li className="rounded-box bg-base-200 px-3 py-1">{carsText(seller.carsSold, 'sold')}</li>
        </ul>
        {replies && <p className="mt-3 text-sm">{replies}</p>}
      </div>
    </header>
  );
}

function HeaderSkeleton() {
  return (
    <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
      <div className="size-20 shrink-0 animate-pulse rounded-full bg-base-200 sm:size-24" />
      <div className="grid gap-3">
        <div className="h-9 w-56 animate-pulse rounded-lg bg-base-300" />
        <div className="h-5 w-40 animate-pulse rounded-lg bg-base-300" />
        <div className="h-7 w-64 animate-pulse rounded-lg bg-base-200" />
      </div>
    </div>
  );
}

function CarsSkeleton() {
  const { user } = useSession();
  return (
    <div className="mt-5 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {[0, 1, 2].map((index) => (
        <div key={index} className={index > 0 ? 'hidden sm:block' : undefined}>
          <ListingCardSkeleton withNote={!holdsRole(user?.roles, 'Buyer')} />
        </div>
      ))}
    </div>
  );
}

/** The seller's cars on sale, newest first, a page at a time. */
function SellerCars({ sellerId, name }: { sellerId: string; name: string }) {
  const cars = useSellerCars(sellerId);
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage } = cars;
  const items = data?.pages.flatMap((page) => page.items) ?? [];
  const first = data?.pages[0];
  return (
    <section aria-labelledby="seller-cars-title" className="mt-12">
      <h2 id="seller-cars-title" className="text-2xl font-bold tracking-tight">
        Cars on sale by {name}
      </h2>
      <PageState
        query={{ ...cars, data: data ? items : undefined }}
        loading="Loading the seller's cars…"
        skeleton={<CarsSkeleton />}
        what="this seller's cars"
        empty={
          <div className="mt-5">
            <EmptyState
              title="No cars on sale right now"
              action={
                <Link to="/cars" className="text-link">
                  Find a car
                </Link>
              }
            />
          </div>
        }
      >
        {(loaded) => (
          <>
            <ul className="mt-5 grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="seller-cars">
              {loaded.map((car, index) => (
                <li key={car._id} className="flex">
                  <BookableCar car={car} priority={index < 2} />
                </li>
              ))}
            </ul>
            <LoadMore
              shown={loaded.length}
              total={
                first?.totalIsEstimate
                  ? `about ${new Intl.NumberFormat('en-US').format(first.total)}`
                  : new Intl.NumberFormat('en-US').format(first?.total ?? loaded.length)
              }
              hasMore={hasNextPage}
              loading={isFetchingNextPage}
              onMore={() => void fetchNextPage()}
            />
          </>
        )}
      </PageState>
    </section>
  );
}

function SellerPage() {
  const { id = '' } = useParams();
  const seller = useSeller(id);
  const { data, error, isError } = seller;
  usePage({
    title: data ? `${data.name}, seller` : 'Seller',
    ...(data && {
      description: `${data.name}${data.verified ? ', a verified seller' : ''}: ${carsText(data.carsOnSale, 'on sale')}, ${carsText(data.carsSold, 'sold')}. ${memberSinceText(data.memberSince)}.`,
    }),
  });

  if (isError && error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return <NotFound what="this seller" />;
  }

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <Link to="/cars" className="text-link text-sm">
        ← Find a car
      </Link>
      <div className="mt-6">
        <PageState
          query={seller}
          loading="Loading the seller…"
          skeleton={<HeaderSkeleton />}
          what="this seller"
        >
          {(loaded) => (
            <>
              <SellerHeader seller={loaded} />
              <SellerCars sellerId={loaded._id} name={loaded.name} />
            </>
          )}
        </PageState>
      </div>
    </section>
  );
}

export default function SellerRoute() {
  return (
    <RequireBrowsing>
      <SellerPage />
    </RequireBrowsing>
  );
}
