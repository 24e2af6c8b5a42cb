import type { CategorySummary } from '@carmarket/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';

import { RequireAuth } from '../../features/auth/components/require-auth';
import { useSession } from '../../features/auth/use-session';
import { BookButton } from '../../features/bookings/components/book-button';
import { useCategory } from '../../features/listings/api/get-category';
import {
  ListingCard,
  ListingCardSkeleton,
  listingPath,
} from '../../features/listings/components/listing-card';
import { LoadError } from '../../components/ui/load-error';
import { ApiError } from '../../lib/api-client';
import { usePage } from '../../lib/page';
import { NotFound } from './not-found';

const gridClass = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3';

function carsAvailable(count: number): string {
  return `${count} ${count === 1 ? 'car' : 'cars'} available`;
}

function BackLink() {
  return (
    <Link to="/#categories" className="text-link text-sm">
      ← All categories
    </Link>
  );
}

/** Name, icon and count, or placeholders of the same size while they load. */
function CategoryHeader({
  summary,
  count,
}: {
  summary: CategorySummary | undefined;
  count: number | undefined;
}) {
  return (
    <header className="mt-4 flex items-center gap-4">
      {summary ? (
        <img
          src={summary.icon}
          alt=""
          width={64}
          height={64}
          className="size-16 shrink-0 rounded-box bg-base-200 object-contain p-1"
        />
      ) : (
        <div className="size-16 shrink-0 animate-pulse rounded-box bg-base-200" />
      )}
      <div className="min-w-0">
        {summary ? (
          <h1 className="truncate text-3xl leading-10 font-extrabold tracking-tight sm:text-4xl">
            {summary.name}
          </h1>
        ) : (
          <div className="flex h-10 items-center">
            <div className="h-8 w-48 animate-pulse rounded-lg bg-base-300" />
          </div>
        )}
        {count === undefined ? (
          <div className="flex h-7 items-center">
            <div className="h-4 w-28 animate-pulse rounded-lg bg-base-300" />
          </div>
        ) : (
          <p className="text-lg leading-7 text-muted">{carsAvailable(count)}</p>
        )}
      </div>
    </header>
  );
}

function CategoryPage() {
  const { id = '' } = useParams();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const {
    data,
    error,
    isPending,
    isError,
    refetch,
    isFetching,
    hasNextPage,
    fetchNextPage,
    isFetchingNextPage,
  } = useCategory(id);
  // The home page has already loaded the categories: their name, icon and count show at once.
  const cached = queryClient
    // The key of features/categories/api/get-categories.ts, written out: importing its options
    // would split them into chunks of their own that the home page then loads too.
    .getQueryData<CategorySummary[]>(['categories'])
    ?.find((category) => category._id === id);

  usePage({ title: data?.name ?? cached?.name ?? 'Cars in this category' });

  if (isError && error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return <NotFound what="this category" />;
  }

  const summary = data ? { ...data, count: data.total } : cached;
  let body;
  if (isPending) {
    const placeholders = Math.min(Math.max(cached?.count ?? 6, 1), 9);
    body = (
      <>
        <p role="status" className="sr-only">
          Loading cars…
        </p>
        <div className={gridClass}>
          {Array.from({ length: placeholders }, (_, index) => (
            <ListingCardSkeleton key={index} withNote={user?.role !== 'Buyer'} />
          ))}
        </div>
      </>
    );
  } else if (isError) {
    body = (
      <LoadError
        what="the cars of this category"
        error={error}
        retrying={isFetching}
        onRetry={() => void refetch()}
      />
    );
  } else if (data.listings.length === 0) {
    body = (
      <div className="rounded-box border border-dashed border-base-300 bg-base-200 p-8 text-center">
        <p className="text-lg font-semibold">No cars available in this category right now</p>
        <p className="mt-1 text-muted">
          Sellers add cars all the time; other categories may have some.
        </p>
        <Link to="/#categories" className="button button-primary mt-5">
          Browse other categories
        </Link>
      </div>
    );
  } else {
    body = (
      <ul className={gridClass}>
        {data.listings.map((listing) => (
          <li key={listing._id}>
            <ListingCard
              listing={listing}
              action={
                <BookButton
                  listing={listing}
                  before={
                    <Link to={listingPath(listing._id)} className="button button-outline flex-1">
                      Details<span className="sr-only"> of the {listing.name}</span>
                    </Link>
                  }
                />
              }
            />
          </li>
        ))}
      </ul>
    );
  }
  const more =
    data && data.listings.length > 0 ? (
      <div className="mt-8 flex flex-col items-center gap-3">
        <p className="text-sm text-muted" aria-live="polite">
          Showing {data.listings.length} of {data.total}
        </p>
        {hasNextPage && (
          <button
            type="button"
            className="button button-outline"
            disabled={isFetchingNextPage}
            onClick={() => void fetchNextPage()}
          >
            {isFetchingNextPage ? 'Loading more cars…' : 'Load more cars'}
          </button>
        )}
      </div>
    ) : null;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
      <BackLink />
      <CategoryHeader summary={summary} count={summary?.count} />
      <div className="mt-8">{body}</div>
      {more}
    </section>
  );
}

export default function CategoryRoute() {
  return (
    <RequireAuth>
      <CategoryPage />
    </RequireAuth>
  );
}
