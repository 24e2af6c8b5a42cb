import type { ListingCard } from '@carmarket/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { RecentlyViewed } from './recently-viewed';

/*
 * The recently viewed row in each of its states (moved from car-page-extras.spec.ts), its list
 * prepared in localStorage and the server's cards answered by a stubbed fetch: newest first, a
 * car that ended says how in place of a price, a car the server no longer shows leaves the list,
 * each person has their own, and Clear empties it for good.
 */

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

function card(n: number, name: string, extra: Partial<ListingCard> = {}): ListingCard {
  return {
    _id: id(n),
    name,
    year: 2019,
    images: [],
    reprice: 1_500_000,
    orprice: 1_500_000,
    currency: 'USD',
    status: 'available',
    reservedUntil: null,
    ...extra,
  } as ListingCard;
}

/** The cars the server has now, by id; any other id is gone. */
let server: Map<string, ListingCard>;
let asked: string[][];

beforeEach(() => {
  localStorage.clear();
  server = new Map();
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const ids = (new URL(url, 'http://site').searchParams.get('ids') ?? '').split(',');
      asked.push(ids);
      const items = ids.flatMap((each) => server.get(each) ?? []);
      return Promise.resolve(new Response(JSON.stringify({ items }), { status: 200 }));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const keep = (userId: string, ids: string[]) =>
  localStorage.setItem(`recently-viewed:${userId}`, JSON.stringify(ids));
const kept = (userId: string) =>
  JSON.parse(localStorage.getItem(`recently-viewed:${userId}`) ?? 'null') as string[] | null;

function renderRow(userId: string) {
  return renderWithApp(
    <MemoryRouter>
      <RecentlyViewed userId={userId} />
    </MemoryRouter>,
  );
}

const tiles = () =>
  within(screen.getByRole('region', { name: 'Recently viewed' })).getAllByTestId(
    'recently-viewed-car',
  );

describe('the recently viewed row', () => {
  it('shows the cars newest first as the server has them now, each with its price', async () => {
    for (const [n, colour] of [
      [1, 'Amber'],
      [2, 'Beige'],
      [3, 'Cyan'],
    ] as const)
      server.set(id(n), card(n, `Skoda Yeti ${colour}`, { reprice: 1_000_000 + n * 100_000 }));
    keep('rhea', [id(3), id(2), id(1)]);
    renderRow('rhea');
    await screen.findByRole('region', { name: 'Recently viewed' });
    expect(asked).toEqual([[id(3), id(2), id(1)]]);
    expect(tiles().map((tile) => tile.querySelector('h3')?.textContent)).toEqual([
      'Skoda Yeti Cyan',
      'Skoda Yeti Beige',
      'Skoda Yeti Amber',
    ]);
    expect(within(tiles()[0]!).getByTestId('listing-price')).toHaveTextContent('$13,000');
    expect(tiles()[0]).toHaveAttribute('href', `/listing/${id(3)}`);
  });

  it('says Sold, No longer listed or Removed in place of a price, and Reserved beside one', async () => {
    server.set(id(1), card(1, 'Sold car', { status: 'sold' }));
    server.set(id(2), card(2, 'Withdrawn car', { status: 'withdrawn' }));
    server.set(id(3), card(3, 'Removed car', { status: 'removed' }));
    server.set(
      id(4),
      card(4, 'Held car', { status: 'reserved', reservedUntil: '2030-01-01T00:00:00Z' }),
    );
    keep('ada', [id(1), id(2), id(3), id(4)]);
    renderRow('ada');
    await screen.findByRole('region', { name: 'Recently viewed' });
    const [sold, withdrawn, removed, held] = tiles() as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    for (const [tile, words] of [
      [sold, 'Sold'],
      [withdrawn, 'No longer listed'],
      [removed, 'Removed'],
    ] as const) {
      expect(within(tile).getByTestId('recently-viewed-status')).toHaveTextContent(words);
      expect(within(tile).queryByTestId('listing-price')).toBeNull();
    }
    expect(within(held).getByTestId('listing-price')).toHaveTextContent('$15,000');
    expect(held).toHaveTextContent('Reserved');
  });

  it('drops a car the server no longer shows from the list it keeps', async () => {
    const gone = '00000000-0000-4000-8000-00000000dead';
    server.set(id(1), card(1, 'Kept car'));
    keep('rhea', [gone, id(1)]);
    renderRow('rhea');
    await screen.findByRole('region', { name: 'Recently viewed' });
    expect(tiles()).toHaveLength(1);
    await waitFor(() => expect(kept('rhea')).toEqual([id(1)]));
  });

  it('shows each person on this browser only the cars they opened', async () => {
    server.set(id(1), card(1, 'Rhea’s car'));
    server.set(id(2), card(2, 'Sid’s car'));
    keep('rhea', [id(1)]);
    keep('sid', [id(2)]);
    renderRow('sid');
    await screen.findByRole('region', { name: 'Recently viewed' });
    expect(tiles().map((tile) => tile.querySelector('h3')?.textContent)).toEqual(['Sid’s car']);
    expect(asked).toEqual([[id(2)]]);
  });

  it('shows nothing, and asks nothing, while the person has opened no car', () => {
    keep('rhea', [id(1)]);
    const { container } = renderRow('sid');
    expect(container).toBeEmptyDOMElement();
    expect(asked).toEqual([]);
  });

  it('Clear empties the person’s list, says so with the focus on it, and the row stays gone', async () => {
    for (const n of [1, 2, 3]) server.set(id(n), card(n, `Car ${n}`));
    keep('rhea', [id(3), id(2), id(1)]);
    keep('sid', [id(1)]);
    const { user, unmount } = renderRow('rhea');
    const row = await screen.findByRole('region', { name: 'Recently viewed' });
    expect(tiles()).toHaveLength(3);
    await user.click(within(row).getByRole('button', { name: 'Clear recently viewed cars' }));
    expect(within(row).queryAllByTestId('recently-viewed-car')).toHaveLength(0);
    const status = within(row).getByRole('status');
    expect(status).toHaveTextContent('Cleared. Cars you open will show here again.');
    expect(status).toHaveFocus();
    expect(within(row).queryByRole('button')).toBeNull();
    expect(kept('rhea')).toBeNull();
    expect(kept('sid')).toEqual([id(1)]);

    // Shown again (a reload): nothing.
    unmount();
    const again = renderRow('rhea');
    expect(again.container).toBeEmptyDOMElement();
  });
});
