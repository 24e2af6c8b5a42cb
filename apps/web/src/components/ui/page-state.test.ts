import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { EmptyState, PageState, type LoadedQuery } from './page-state';

const idle = {
  error: null,
  isPending: false,
  isError: false,
  isFetching: false,
  refetch: () => {},
};

function render<T>(
  query: LoadedQuery<T>,
  props: Partial<Parameters<typeof PageState<T>>[0]> = {},
): string {
  return renderToStaticMarkup(
    createElement(PageState<T>, {
      query,
      loading: 'Loading your bookings…',
      what: 'your bookings',
      empty: createElement(EmptyState, { title: 'You have not booked a car yet' }),
      children: (data: T): ReactNode => `${(data as unknown[]).length} bookings`,
      ...props,
    }),
  );
}

describe('PageState', () => {
  it('says the page’s words in a status while loading, over the placeholder when there is one', () => {
    const pending = { ...idle, data: undefined, isPending: true };
    expect(render(pending)).toBe(
      '<p role="status" class="animate-pulse text-muted">Loading your bookings…</p>',
    );
    const withSkeleton = render(pending, { skeleton: createElement('div', { id: 'skeleton' }) });
    expect(withSkeleton).toContain('<p role="status" class="sr-only">Loading your bookings…</p>');
    expect(withSkeleton).toContain('<div id="skeleton"></div>');
  });

  it('shows a failure as an alert with the reason and a Try again button', () => {
    const html = render({ ...idle, data: undefined, isError: true, error: new Error('Offline') });
    expect(html).toContain('role="alert"');
    expect(html).toContain('We could not load your bookings.');
    expect(html).toMatch(/<button type="button"[^>]*>Try again<\/button>/);
  });

  it('says "Trying again…" on a disabled button while it asks again', () => {
    const html = render({ ...idle, data: undefined, isError: true, isFetching: true });
    expect(html).toMatch(/<button type="button"[^>]*disabled=""[^>]*>Trying again…<\/button>/);
  });

  it('lets a page word a failure itself, such as a missing booking', () => {
    const html = render(
      { ...idle, data: undefined, isError: true },
      { renderError: () => 'We could not find this booking' },
    );
    expect(html).toBe('We could not find this booking');
  });

  it('shows the empty state for an empty list, and the data otherwise', () => {
    expect(render({ ...idle, data: [] })).toContain('You have not booked a car yet');
    expect(render({ ...idle, data: [1, 2] })).toBe('2 bookings');
  });
});
