import type { ReactNode } from 'react';

import { LoadError } from './load-error';

/** What PageState reads of a React Query result (useQuery and useInfiniteQuery give it all). */
export interface LoadedQuery<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * What a page shows for the data it loads: while loading, its words in a status (screen readers
 * hear them) over a placeholder, or the words themselves, pulsing, when there is none; on failure
 * an alert with the reason and a Try again button; `empty` when there is nothing; else
 * `children` with the data. Each page passes its own words.
 */
export function PageState<T>({
  query,
  loading,
  skeleton,
  what,
  empty,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  renderError = (_error, loadError) => loadError,
  children,
}: {
  query: LoadedQuery<T>;
  /**
   * "Loading your bookings…". Left out only where the page already says it is loading in a
   * status of its own (All Users' summary line): then the placeholder shows alone.
   */
  loading?: string;
  /** A placeholder the shape of the content; hidden from screen readers. */
  skeleton?: ReactNode;
  /** Completes "We could not load …": "your bookings". */
  what: string;
  /** What shows when the data holds nothing (an EmptyState); without it, `children` shows. */
  empty?: ReactNode | ((data: T) => ReactNode);
  /** Whether the data holds nothing: an empty array unless given. */
  isEmpty?: (data: T) => boolean;
  /** For a failure the page words itself (a 404): what to show instead of, or around, the alert. */
  renderError?: (error: unknown, loadError: ReactNode) => ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { data, error, isPending, isError, isFetching, refetch } = query;
  if (isPending) {
    if (loading === undefined) return <>{skeleton}</>;
    return <LoadingStatus skeleton={skeleton}>{loading}</LoadingStatus>;
  }
  if (isError) {
    const loadError = (
      <LoadError what={what} error={error} retrying={isFetching} onRetry={() => void refetch()} />
    );
    return <>{renderError(error, loadError)}</>;
  }
  if (empty !== undefined && isEmpty(data as T)) {
    return <>{typeof empty === 'function' ? empty(data as T) : empty}</>;
  }
  return <>{children(data as T)}</>;
}

/** A load under way: the words for screen readers over a placeholder, or shown, pulsing. */
export function LoadingStatus({
  skeleton,
  children,
}: {
  skeleton?: ReactNode;
  /** "Loading your bookings…" */
  children: ReactNode;
}) {
  if (skeleton === undefined) {
    return (
      <p role="status" className="animate-pulse text-muted">
        {children}
      </p>
    );
  }
  return (
    <>
      <p role="status" className="sr-only">
        {children}
      </p>
      {skeleton}
    </>
  );
}

/**
 * Nothing to show yet: what is missing, a line on how it comes, what to do about it (`action`),
 * and anything else the page has to offer (`children`, e.g. filters to remove).
 */
export function EmptyState({
  title,
  icon,
  description,
  action,
  children,
}: {
  /** "You have not booked a car yet" */
  title?: ReactNode;
  icon?: ReactNode;
  description?: ReactNode;
  /** A link or button, e.g. to the page where such things are made. */
  action?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="rounded-box border border-dashed border-base-300 bg-base-200 p-8 text-center">
      {icon}
      {title && <p className={`text-lg font-semibold ${icon ? 'mt-3' : ''}`}>{title}</p>}
      {description && (
        <p className={`mx-auto max-w-md text-muted ${title ? 'mt-1' : ''}`}>{description}</p>
      )}
      {action && <div className="mt-5">{action}</div>}
      {children}
    </div>
  );
}
