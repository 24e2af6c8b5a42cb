import { Link } from 'react-router';

/** Page numbers to show: the first, the last, and the current one with its neighbours. */
export function pageWindow(page: number, pageCount: number): (number | 'gap')[] {
  const shown = new Set([1, pageCount, page - 1, page, page + 1]);
  const pages = [...shown].filter((n) => n >= 1 && n <= pageCount).sort((a, b) => a - b);
  const result: (number | 'gap')[] = [];
  pages.forEach((n, index) => {
    const previous = pages[index - 1];
    if (previous !== undefined && n - previous > 1) result.push('gap');
    result.push(n);
  });
  return result;
}

/** Previous, the page numbers and Next, as links (so the browser's Back button works). */
export function Pagination({
  page,
  pageCount,
  hrefFor,
}: {
  page: number;
  pageCount: number;
  /** The address of a page, e.g. `?role=Seller&page=3`. */
  hrefFor: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  const linkClass = 'button button-sm button-outline min-w-10 px-3';
  const disabledClass = 'button button-sm button-outline min-w-10 px-3 opacity-50';

  return (
    <nav aria-label="Pages" className="flex flex-wrap items-center justify-center gap-2">
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} className={linkClass} rel="prev">
          Previous
        </Link>
      ) : (
        <span className={disabledClass} aria-disabled="true">
          Previous
        </span>
      )}
      <ul className="flex flex-wrap items-center gap-1">
        {pageWindow(page, pageCount).map((n, index) =>
          n === 'gap' ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-muted">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                to={hrefFor(n)}
                className={n === page ? 'button button-sm button-primary min-w-10 px-3' : linkClass}
                aria-current={n === page ? 'page' : undefined}
                aria-label={`Page ${n}`}
              >
                {n}
              </Link>
            </li>
          ),
        )}
      </ul>
      {page < pageCount ? (
        <Link to={hrefFor(page + 1)} className={linkClass} rel="next">
          Next
        </Link>
      ) : (
        <span className={disabledClass} aria-disabled="true">
          Next
        </span>
      )}
    </nav>
  );
}
