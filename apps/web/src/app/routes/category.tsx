import { holdsRole, type CategorySummary } from '@carmarket/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';

import { RequireBrowsing } from '../../features/auth/components/require-browsing';
import { useSession } from '../../features/auth/use-session';
import { useCategory } from '../../features/listings/api/get-category';
import { ListingCardSkeleton } from '../../features/listings/components/listing-card';
import { SaveSearchButton } from '../../features/saved/components/save-search-button';
import { SearchPage } from '../../features/search/pages/search-page';
import { ApiError } from '../../lib/api-client';
import { BookableCar } from './bookable-car';
import { NotFound } from './not-found';

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
  const { data, error, isError } = useCategory(id);
  // The home page has already loaded the categories: their name, icon and count show at once.
  const cached = queryClient
    // The key of features/categories/api/get-categories.ts, written out: importing its options
    // would split them into chunks of their own that the home page then loads too.
    .getQueryData<CategorySummary[]>(['categories'])
    ?.find((category) => category._id === id);

  if (isError && error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return <NotFound what="this category" />;
  }

  const summary = data ? { ...data, count: data.total } : cached;
  return (
    <SearchPage
      category={id}
      categoryName={summary?.name}
      title={summary?.name ?? 'Cars in this category'}
      header={
        <>
          <BackLink />
          <CategoryHeader summary={summary} count={summary?.count} />
        </>
      }
      skeleton={<ListingCardSkeleton withNote={!holdsRole(user?.roles, 'Buyer')} />}
      renderCar={(car, index) => <BookableCar car={car} priority={index < 2} />}
      saveSearch={(search) => <SaveSearchButton {...search} />}
    />
  );
}

export default function CategoryRoute() {
  return (
    <RequireBrowsing>
      <CategoryPage />
    </RequireBrowsing>
  );
}
