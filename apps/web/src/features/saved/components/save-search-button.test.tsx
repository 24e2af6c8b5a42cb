import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { sessionQueryKey, type Session } from '../../auth';
import { SaveCarButton } from './save-car-button';
import { SaveSearchButton } from './save-search-button';

/*
 * Save this search and the heart, for buyers only; the save-search dialog's name, alerts and
 * refusal (moved from keep-track.spec.ts).
 */

const person = (roles: Session['user']['roles']): Session['user'] => ({
  id: 'me',
  name: 'Alex Alerts',
  email: 'alex@example.com',
  roles,
  emailVerified: true,
});

let sent: { url: string; method: string; body: unknown }[];

function serve(user: Session['user']) {
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      if (url.startsWith('/api/auth/get-session')) {
        return Promise.resolve(
          Response.json({ user, session: { id: 's-1', expiresAt: '2099-01-01T00:00:00Z' } }),
        );
      }
      if (method === 'GET') return Promise.resolve(Response.json([]));
      sent.push({ url, method, body: init?.body ? JSON.parse(init.body as string) : undefined });
      return Promise.resolve(Response.json({ acknowledged: true, insertedId: 'ss-1' }));
    }),
  );
}

afterEach(() => vi.unstubAllGlobals());

const QUERY = 'q=quokka&make=Toyota&priceMax=3000000';
const car = {
  _id: '00000000-0000-4000-8000-000000000001',
  name: 'Toyota HiAce',
  year: 2021,
  images: [],
  reprice: 2_450_000,
  orprice: 2_900_000,
  currency: 'USD',
  status: 'available',
  reservedUntil: null,
} as unknown as Parameters<typeof SaveCarButton>[0]['car'];

function renderButtons() {
  return renderWithApp(
    <MemoryRouter>
      <SaveSearchButton query={QUERY} suggestedName="“quokka”, Toyota, under $30,000" />
      <SaveCarButton car={car} />
    </MemoryRouter>,
  );
}

describe('saving a search', () => {
  it('names it after the filters, starts at the name, and mails each new car unless told otherwise', async () => {
    serve(person(['Buyer']));
    const { user } = renderButtons();
    await user.click(await screen.findByRole('button', { name: 'Save this search' }));
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('“quokka”, Toyota, under $30,000');
    await waitFor(() => expect(name).toHaveFocus());
    expect(screen.getByLabelText('Email alerts')).toHaveValue('instant');

    await user.clear(name);
    await user.type(name, 'Toyota quokka');
    await user.selectOptions(screen.getByLabelText('Email alerts'), 'daily');
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      url: '/api/saved-searches',
      method: 'POST',
      body: { name: 'Toyota quokka', query: QUERY, alerts: 'daily' },
    });
  });

  it('refuses an empty name beside the field, and sends nothing', async () => {
    serve(person(['Buyer']));
    const { user } = renderButtons();
    await user.click(await screen.findByRole('button', { name: 'Save this search' }));
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save search' }));
    expect(screen.getByText('Name is required')).toBeVisible();
    expect(name).toHaveFocus();
    expect(sent).toHaveLength(0);
  });
});

describe('for buyers only', () => {
  it('offers a buyer the heart and Save this search', async () => {
    serve(person(['Buyer']));
    renderButtons();
    expect(await screen.findByRole('button', { name: 'Save this search' })).toBeVisible();
    expect(await screen.findByRole('button', { name: /^Save .*Toyota HiAce/ })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('offers a seller neither', async () => {
    serve(person(['Seller']));
    const { container, queryClient } = renderButtons();
    // Once the session has arrived, nothing is drawn for a seller.
    await waitFor(() => expect(queryClient.getQueryData(sessionQueryKey)).toBeTruthy());
    expect(within(container).queryByRole('button')).toBeNull();
    expect(container).toBeEmptyDOMElement();
  });
});
