import type { CategorySummary } from '@carmarket/shared';
import { Link } from 'react-router';

import { ArrowRightIcon } from '../../../components/ui/icons';

export function carsAvailable(count: number): string {
  return `${count} ${count === 1 ? 'car' : 'cars'} available`;
}

const tileClass =
  'flex h-full flex-col overflow-hidden rounded-box border border-base-300 bg-base-100 card-shadow';

export function CategoryTile({ category }: { category: CategorySummary }) {
  return (
    <Link
      to={`/category/${category._id}`}
      className={`${tileClass} group transition-colors hover:border-primary`}
      data-testid="category-tile"
    >
      <div className="flex h-36 items-center justify-center bg-base-200">
        <img
          src={category.icon}
          alt={`${category.name} category icon`}
          width={112}
          height={112}
          loading="lazy"
          decoding="async"
          className="size-28 object-contain"
        />
      </div>
      <div className="flex flex-1 items-end justify-between gap-4 p-5">
        <div className="min-w-0">
          <h3 className="truncate text-xl leading-7 font-bold group-hover:text-primary">
            {category.name}
          </h3>
          <p className="mt-1 leading-6 text-muted">{carsAvailable(category.count)}</p>
        </div>
        <span
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-base-200 text-primary"
          aria-hidden="true"
        >
          <ArrowRightIcon className="size-5" />
        </span>
      </div>
    </Link>
  );
}

/** Same size as a tile, so the grid does not move when the categories arrive. */
export function CategoryTileSkeleton() {
  return (
    <div className={tileClass} aria-hidden="true">
      <div className="flex h-36 items-center justify-center bg-base-200">
        <div className="size-28 animate-pulse rounded-box bg-base-300" />
      </div>
      <div className="flex flex-1 items-end justify-between gap-4 p-5">
        <div>
          <div className="my-1 h-5 w-32 animate-pulse rounded-lg bg-base-300" />
          <div className="mt-2 mb-1 h-4 w-40 animate-pulse rounded-lg bg-base-300" />
        </div>
        <div className="size-10 shrink-0 animate-pulse rounded-full bg-base-300" />
      </div>
    </div>
  );
}
