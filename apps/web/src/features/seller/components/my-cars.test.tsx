import type { MyListing, MyListingCounts } from '@carmarket/shared';
import { screen, within } from '@testing-library/react';
import { BrowserRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { MyCars } from './my-cars';

/*
 * My cars with a search that finds little or nothing (moved from my-cars.spec.ts): the tabs count
 * what the search finds, and nothing found says why, with a way back to every car. The server is
 * a stub that knows four cars, one withdrawn.
 */

const car = (name: string, make: string, status: Exclude<MyListing['status'], 'removed'>) =>
  ({ _id: name, name, make, status }) as unknown as MyListing & { status: typeof status };
const cars = [
  car('Toyota Corolla', 'Toyota', 'available'),
  car('Kia Niro', 'Kia', 'withdrawn'),
  car('Tesla Model 3', 'Tesla', 'available'),
  car('Volkswagen Golf', 'Volkswagen', 'available'),
];

afterEach(() => vi.unstubAllGlobals());

function renderMyCars(address: string) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', (input: string) => {
    const url = new URL(input, 'http://localhost');
    asked.push(`${url.pathname}${url.search}`);
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const found = cars.filter((one) => `${one.name} ${one.make}`.toLowerCase().includes(q));
    if (url.pathname === '/api/my/listings/counts') {
      const counts: MyListingCounts = {
        all: found.length,
        available: 0,
        reserved: 0,
        sold: 0,
        withdrawn: 0,
      };
      for (const one of found) counts[one.status] += 1;
      return Promise.resolve(Response.json(counts));
    }
    const status = url.searchParams.get('status');
    const shown = found.filter((one) => !status || one.status === status);
    // What the tests read is the count: the rows themselves are left out.
    return Promise.resolve(
      Response.json([], { headers: { 'X-Total-Count': String(shown.length) } }),
    );
  });
  // My cars keeps its view in the address, and reads the browser's own.
  window.history.replaceState(null, '', address);
  return {
    asked,
    ...renderWithApp(
      <BrowserRouter>
        <MyCars onEdit={() => {}} onWithdraw={() => {}} />
      </BrowserRouter>,
    ),
  };
}

const tabs = () => screen.getByRole('group', { name: 'Show cars by status' });

describe('My cars, searched', () => {
  it('the tabs count what the search finds', async () => {
    renderMyCars('/dashboard/my-products?q=corolla');
    expect(
      await within(tabs()).findByRole('button', { name: 'All 1', pressed: true }),
    ).toBeInTheDocument();
    expect(within(tabs()).getByRole('button', { name: 'On sale 1' })).toBeInTheDocument();
    expect(within(tabs()).getByRole('button', { name: 'Withdrawn 0' })).toBeInTheDocument();
  });

  it('a search that finds nothing in a tab says so, with the tab, and Show every car ends the search', async () => {
    const { user, asked } = renderMyCars('/dashboard/my-products?q=KIA&status=available');
    expect(await screen.findByText('No cars match “KIA” among cars on sale')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search your cars' })).toHaveValue('KIA');
    await user.click(screen.getByRole('button', { name: 'Show every car' }));
    expect(await screen.findByText('No cars on sale')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search your cars' })).toHaveValue('');
    expect(window.location.search).toBe('?status=available');
    expect(asked.at(-1)).not.toContain('q=');
  });

  it('a search that finds nothing at all says so, without a tab', async () => {
    renderMyCars('/dashboard/my-products?q=nothing%20like%20it');
    expect(await screen.findByText('No cars match “nothing like it”')).toBeInTheDocument();
    expect(screen.getByText('Search by a car’s name, make, model or VIN.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show every car' })).toBeInTheDocument();
  });
});
