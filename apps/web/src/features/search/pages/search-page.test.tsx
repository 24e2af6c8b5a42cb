import type { SearchResult } from '@carmarket/shared';
import { act, screen, within } from '@testing-library/react';
import { BrowserRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { SearchPage } from './search-page';

/*
 * The search page's refused searches (moved from search-form.spec.ts): an inverted range from a
 * link and a filter the server refuses say so by their field and wait for nothing; on a phone the
 * Filters dialog will not close on an inverted range typed in it, and keeps it.
 */

const found: SearchResult = {
  items: [],
  total: 3,
  totalIsEstimate: false,
} as unknown as SearchResult;

/** The server: each search answered `answer`; the searches asked for, in order. */
function renderPage(address: string, answer: { status: number; body: unknown }) {
  const searches: string[] = [];
  vi.stubGlobal('fetch', async (input: string) => {
    const url = new URL(input, 'http://localhost');
    if (url.pathname === '/api/listings') {
      searches.push(url.search);
      return Response.json(answer.body, { status: answer.status });
    }
    return Response.json({}, { status: 404 });
  });
  window.history.replaceState(null, '', address);
  const rendered = renderWithApp(
    <BrowserRouter>
      <SearchPage renderCar={(car) => <p>{car.name}</p>} skeleton={<p>…</p>} />
    </BrowserRouter>,
  );
  return { searches, ...rendered };
}

const filters = () => screen.getByRole('complementary', { name: 'Filters' });

describe('a search that cannot run', () => {
  it('an inverted range from a link says so by its field, and asks the server nothing', async () => {
    const { searches } = renderPage('/cars?priceMin=5000000&priceMax=1000000', {
      status: 200,
      body: found,
    });
    expect(await screen.findByRole('heading', { name: 'Check the filters' })).toBeInTheDocument();
    expect(screen.getByText('This search cannot run as it is.')).toBeInTheDocument();
    expect(screen.queryByText(/Searching…|Counting…|We could not load/)).not.toBeInTheDocument();
    const price = within(filters()).getByRole('group', { name: 'Price' });
    expect(within(price).getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    expect(
      within(price).getByText('The lowest price must not be above the highest'),
    ).toBeInTheDocument();
    expect(
      within(filters()).getAllByText('Counted once the filters are put right.')[0],
    ).toBeInTheDocument();
    expect(searches).toEqual([]);
  });

  it('a place the server refuses: its 400 names `near`, and the page says so by the Near field', async () => {
    renderPage('/cars?near=99999999&placeName=Nowhere', {
      status: 400,
      body: {
        error: { code: 'validation', message: 'That place is not in the list', field: 'near' },
      },
    });
    expect(await screen.findByRole('heading', { name: 'Check the filters' })).toBeInTheDocument();
    expect(screen.queryByText(/Searching…|Counting…|We could not load/)).not.toBeInTheDocument();
    const near = within(filters()).getByRole('combobox', { name: 'Near' });
    expect(near).toHaveAttribute('aria-invalid', 'true');
    expect(near).toHaveAccessibleDescription('That place is not in the list');
  });
});

describe('the Filters dialog on a phone', () => {
  it('will not close on an inverted range, says why, and keeps it when opened again', async () => {
    const { user } = renderPage('/cars', { status: 200, body: found });
    await user.click(await screen.findByRole('button', { name: /^Filters/ }));
    const dialog = () => screen.getByRole('dialog', { name: 'Filters' });
    const price = () => within(dialog()).getByRole('group', { name: 'Price' });
    const to = () => within(price()).getByLabelText('To');
    await user.type(within(price()).getByLabelText('From'), '50000{Enter}');
    expect(window.location.search).toContain('priceMin=5000000');
    await user.type(to(), '10000{Enter}');
    const message = 'The lowest price must not be above the highest';
    expect(within(price()).getByText(message)).toBeInTheDocument();
    // The dialog's button waits for the range to be put right, and says why.
    const show = () => within(dialog()).getByRole('button', { name: /^Show (cars$|[0-9])/ });
    expect(show()).toBeDisabled();
    expect(show()).toHaveAccessibleDescription('Put the price range right to show the cars.');

    // Closed another way and opened again: the typed end and its message are still there.
    // Escape closes a native <dialog> in a browser; happy-dom has no such key, so close it as
    // Escape does.
    act(() => (dialog() as HTMLDialogElement).close());
    await vi.waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Filters' })).not.toBeInTheDocument(),
    );
    await user.click(screen.getByRole('button', { name: /^Filters/ }));
    expect((to() as HTMLInputElement).value).toMatch(/^10,?000$/);
    expect(within(price()).getByText(message)).toBeInTheDocument();
    expect(show()).toBeDisabled();
    // Put right, the button works again and the search has both ends.
    await user.clear(to());
    await user.type(to(), '60000{Enter}');
    expect(window.location.search).toContain('priceMax=6000000');
    await vi.waitFor(() => expect(show()).toBeEnabled());
  });
});
