import type { ListingDetail, ListingStatus } from '@carmarket/shared';
import { useCallback, useEffect } from 'react';
import { Link, useParams } from 'react-router';

import { PageState } from '../../components/ui/page-state';
import { LazyRemoveCarButton } from '../../features/admin/components/lazy-remove-car-button';
import { useSession } from '../../features/auth';
import { RequireBrowsing } from '../../features/auth/components/require-browsing';
import { BookButton } from '../../features/bookings/components/book-button';
import { useListing } from '../../features/listings/api/get-listing';
import { ListingFacts } from '../../features/listings/components/listing-facts';
import { ListingGallery } from '../../features/listings/components/listing-gallery';
import { ListingPrice } from '../../features/listings/components/listing-price';
import { SimilarCars } from '../../features/listings/components/similar-cars';
import { PriceHistory } from '../../features/listings/components/price-history';
import { VerifiedBadge } from '../../features/listings/components/verified-badge';
import { LazyAskSellerButton } from '../../features/messages/components/lazy-ask-seller-button';
import { LazyPaymentCalculator } from '../../features/monthly-payment';
import { PriceBand } from '../../features/price-guide';
import { recordViewed } from '../../features/recently-viewed';
import { SaveOrSignInButton } from '../../features/saved/components/save-or-sign-in-button';
import { useSearchOrigin } from '../../features/search/back-to-results';
import { SellerFacts } from '../../features/sellers/components/seller-facts';
import { sellerPath } from '../../features/sellers/paths';
import { preloadPage } from '../preload-route';
import { isOwnCar, LazyYourCarPanel } from '../../features/seller/components/lazy-your-car-panel';
import { CAR_ACTION_PARAM, type CarAction } from '../../features/visitors';
import { VinDecodedNote } from '../../features/vin/components/vin-decoded-note';
import { ApiError } from '../../lib/api-client';
import { formatDate } from '../../lib/format-date';
import { usePage } from '../../lib/page';
import { useQueryParams } from '../../lib/use-query-params';
import { useHydrated, useLocalTime } from '../../lib/use-hydrated';
import { NotFound } from './not-found';

const STATUS_LABELS: Partial<Record<ListingStatus, string>> = {
  sold: 'Sold',
  withdrawn: 'Withdrawn by the seller',
  removed: 'Removed',
};

const bar = 'animate-pulse rounded-lg bg-base-300';

function ListingSkeleton() {
  return (
    <div aria-hidden="true" className="grid gap-8 lg:grid-cols-12">
      <div className="aspect-[3/2] w-full animate-pulse rounded-box bg-base-200 lg:col-span-7" />
      <div className="lg:col-span-5">
        <div className={`h-4 w-24 ${bar}`} />
        <div className={`mt-4 h-9 w-4/5 ${bar}`} />
        <div className={`mt-4 h-5 w-48 ${bar}`} />
        <div className={`mt-6 h-9 w-40 ${bar}`} />
        <div className={`mt-6 h-11 w-full ${bar}`} />
        <div className={`mt-8 h-28 w-full ${bar}`} />
      </div>
    </div>
  );
}

/**
 * What a visitor who pressed Save, Book now or Ask the seller before they had an account comes
 * back to finish (`?then=save`, decision 028): `finish(action)` is the callback that the button
 * for that action calls once it has acted, which takes the parameter out of the address.
 */
function useCarAction() {
  const [params, setParams] = useQueryParams();
  const action = params.get(CAR_ACTION_PARAM);
  const done = useCallback(
    () =>
      setParams(
        (current) => {
          current.delete(CAR_ACTION_PARAM);
          return current;
        },
        { replace: true },
      ),
    [setParams],
  );
  return (name: CarAction) => (action === name ? done : undefined);
}

/**
 * What a sold or withdrawn car's page says first (issue 32): the link in a saved car or an alert
 * leads here, and the similar cars below are what the reader can still buy. The date is the
 * reader's, so it shows once the browser has the page.
 */
function EndedNotice({ listing }: { listing: ListingDetail }) {
  const hydrated = useHydrated();
  const sold = listing.status === 'sold';
  return (
    <div
      className="mb-8 rounded-box border border-base-300 bg-base-200 p-5 sm:p-6"
      data-testid="ended-notice"
    >
      <p className="text-xl font-bold tracking-tight">
        {sold ? 'This car was sold' : 'This car is no longer listed'}
        {sold && hydrated && listing.soldAt && (
          <>
            {' on '}
            <time dateTime={listing.soldAt}>{formatDate(listing.soldAt)}</time>
          </>
        )}
      </p>
      <p className="mt-1 text-muted">
        {sold ? 'It can no longer be booked.' : 'Its seller took it off sale.'}{' '}
        <button type="button" className="text-link" onClick={showSimilarCars}>
          See similar cars on sale
        </button>
      </p>
    </div>
  );
}

/**
 * Scrolls to the similar cars and takes focus there. Not a link to `#similar-title`: the router
 * treats a change of hash as a new page, and the page's focus would go back to its start.
 */
function showSimilarCars() {
  const heading = document.getElementById('similar-title');
  heading?.scrollIntoView({ block: 'start' });
  heading?.focus({ preventScroll: true });
}

/** A car that is not for sale any more: its page stays, with nothing to book or ask. */
const isEnded = (listing: ListingDetail) =>
  listing.status === 'sold' || listing.status === 'withdrawn';

function ListingView({ listing }: { listing: ListingDetail }) {
  const { user } = useSession();
  const finish = useCarAction();
  // The car's own seller gets its tools instead of Book now, Save and Ask the seller.
  const mine = isOwnCar(user, listing);
  const ended = !mine && isEnded(listing);
  // The person's recently viewed cars, in this browser (issue 32); not the seller's own.
  const userId = user?.id;
  useEffect(() => {
    if (userId && !mine) recordViewed(userId, listing._id);
  }, [userId, mine, listing._id]);
  const reservedUntil = useLocalTime(listing.reservedUntil);
  const statusLabel = listing.reservedUntil
    ? `Reserved${reservedUntil ? ` until ${reservedUntil}` : ''}: another buyer is paying`
    : // The seller's panel says it; a sold or withdrawn car's notice too.
      !mine && !ended && STATUS_LABELS[listing.status];
  return (
    <>
      {ended && <EndedNotice listing={listing} />}
      <article aria-labelledby="listing-title" className="grid gap-8 lg:grid-cols-12">
        <div className="lg:col-span-7">
          <ListingGallery listing={listing} />
        </div>
        <div className="min-w-0 lg:col-span-5">
          <p className="section-eyebrow">
            <Link to={`/category/${listing.categoryId}`} className="hover:underline">
              {listing.categoryName}
            </Link>
          </p>
          <h1
            id="listing-title"
            className="mt-2 text-3xl leading-tight font-extrabold tracking-tight sm:text-4xl"
          >
            {listing.name}
          </h1>
          <p className="mt-3 flex flex-wrap items-center gap-x-2 gap-y-1 text-muted">
            <span>
              Seller:{' '}
              <Link
                to={sellerPath(listing.sellerId)}
                className="font-semibold text-base-content underline underline-offset-2"
                // The seller's page code on the way as the link is pointed at: followed, the car
                // page stays until it is ready, with no full-page "Loading…" between them.
                onPointerEnter={() => preloadPage(sellerPath(listing.sellerId))}
                onFocus={() => preloadPage(sellerPath(listing.sellerId))}
              >
                {listing.seller}
              </Link>
            </span>
            {listing.sellerVerified && <VerifiedBadge />}
          </p>
          <SellerFacts sellerId={listing.sellerId} className="mt-1" />
          {statusLabel && (
            <p className="mt-4 inline-block rounded-box bg-base-200 px-3 py-1 text-sm font-semibold">
              {statusLabel}
            </p>
          )}
          <div className="mt-5">
            {ended && <p className="text-sm text-muted">Last asking price</p>}
            <ListingPrice
              reprice={listing.reprice}
              orprice={listing.orprice}
              currency={listing.currency}
              size="lg"
            />
          </div>
          <PriceHistory listing={listing} className="mt-2" />
          <PriceBand listing={listing} className="mt-5" />
          {mine ? (
            <LazyYourCarPanel car={listing} className="mt-6" />
          ) : ended ? null : (
            <>
              <BookButton
                listing={listing}
                before={
                  <SaveOrSignInButton car={listing} look="labelled" finish={finish('save')} />
                }
                className="mt-6 max-w-sm"
                finish={finish('book')}
              />
              <LazyAskSellerButton
                listing={listing}
                className="mt-3 max-w-sm"
                finish={finish('ask')}
              />
            </>
          )}
          <LazyRemoveCarButton car={listing} className="mt-4" />
          <ListingFacts
            listing={listing}
            full={listing}
            className="mt-8 rounded-box border border-base-300 bg-base-200 p-5"
          />
          <VinDecodedNote listing={listing} className="mt-4" />
          {!mine && !ended && (
            <LazyPaymentCalculator
              key={listing._id}
              priceCents={listing.reprice}
              currency={listing.currency}
              className="mt-8"
            />
          )}
        </div>
        <section aria-labelledby="description-title" className="lg:col-span-7">
          <h2 id="description-title" className="text-xl font-bold">
            About this car
          </h2>
          <p className="mt-3 leading-7 whitespace-pre-line">{listing.description}</p>
        </section>
      </article>
      <SimilarCars carId={listing._id} className="mt-14" />
    </>
  );
}

function ListingPage() {
  const { id = '' } = useParams();
  const listing = useListing(id);
  const { data, error, isError } = listing;
  const fromSearch = useSearchOrigin();
  usePage({ title: data?.name ?? 'Car' });

  if (isError && error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return <NotFound what="this car" />;
  }

  return (
    <section
      className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14"
      // A similar car opened from here keeps Back to results.
      onClickCapture={fromSearch?.passOn}
    >
      {fromSearch ? (
        <Link to={fromSearch.search} onClick={fromSearch.back} className="text-link text-sm">
          ← Back to results
        </Link>
      ) : (
        <Link
          to={data ? `/category/${data.categoryId}` : '/#categories'}
          className="text-link text-sm"
        >
          ← {data ? `Back to ${data.categoryName}` : 'All categories'}
        </Link>
      )}
      <div className="mt-6">
        <PageState
          query={listing}
          loading="Loading the car…"
          skeleton={<ListingSkeleton />}
          what="this car"
        >
          {(loaded) => <ListingView listing={loaded} />}
        </PageState>
      </div>
    </section>
  );
}

export default function ListingRoute() {
  return (
    <RequireBrowsing>
      <ListingPage />
    </RequireBrowsing>
  );
}
