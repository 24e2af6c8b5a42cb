import { errorMessage } from '../../../lib/api-client';
import { useCategories } from '../api/get-categories';
import { CategoryTile, CategoryTileSkeleton } from './category-tile';

/** The seed has three categories; as many placeholders keep the page from shifting. */
const PLACEHOLDERS = 3;

const gridClass = 'grid gap-5 sm:grid-cols-2 lg:grid-cols-3';

/**
 * The home page's categories. Its loading, error and empty states are written here rather than
 * with PageState (components/ui/page-state.tsx), the same words and roles: the home page's 100 KB
 * budget pays for every byte, PageState came to ~0.6 KB more of script, and index.css scans this
 * folder for class names, not components/ui.
 */
export function CategoryGrid() {
  const { data, error, isPending, isError, refetch, isFetching } = useCategories();

  if (isPending) {
    return (
      <div>
        <p role="status" className="sr-only">
          Loading categories…
        </p>
        <div className={gridClass}>
          {Array.from({ length: PLACEHOLDERS }, (_, index) => (
            <CategoryTileSkeleton key={index} />
          ))}
        </div>
      </div>
    );
  }

  if (isError) {
    return (
      <div
        role="alert"
        className="flex flex-col items-start gap-3 rounded-box border border-error bg-error-soft p-5 sm:flex-row sm:items-center"
      >
        <div className="flex-1">
          <p className="font-semibold">We could not load the categories.</p>
          <p className="mt-1 text-sm text-muted">{errorMessage(error)}</p>
        </div>
        <button
          type="button"
          className="button button-outline"
          onClick={() => void refetch()}
          disabled={isFetching}
        >
          {isFetching ? 'Trying again…' : 'Try again'}
        </button>
      </div>
    );
  }

  if (data.length === 0) {
    return (
      <div className="rounded-box border border-dashed border-base-300 bg-base-200 p-8 text-center">
        <p className="font-semibold">No categories yet</p>
        <p className="mt-1 text-muted">
          Sellers have not listed any cars so far. Please check back soon.
        </p>
      </div>
    );
  }

  return (
    <ul className={gridClass}>
      {data.map((category) => (
        <li key={category._id}>
          <CategoryTile category={category} />
        </li>
      ))}
    </ul>
  );
}
