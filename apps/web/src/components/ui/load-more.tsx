/**
 * Below a list that comes in pages: how many of how many are shown (read out as it changes), when
 * the list counts them, and a button for the next page while there is one.
 */
export function LoadMore({
  shown,
  total,
  hasMore,
  loading,
  onMore,
  noun = 'cars',
}: {
  /** Left out by a list that does not count its items: then only the button shows. */
  shown?: number;
  /** "90", or "about 120,000" when the total is an estimate. */
  total?: string;
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
  noun?: string;
}) {
  const counted = shown !== undefined && total !== undefined;
  if (!counted && !hasMore) return null;
  return (
    <div className="mt-8 flex flex-col items-center gap-3">
      {counted && (
        <p className="text-sm text-muted" aria-live="polite">
          Showing {new Intl.NumberFormat('en-US').format(shown)} of {total}
        </p>
      )}
      {hasMore && (
        <button type="button" className="button button-outline" disabled={loading} onClick={onMore}>
          {loading ? `Loading more ${noun}…` : `Load more ${noun}`}
        </button>
      )}
    </div>
  );
}
