import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { UnsubscribePage } from './unsubscribe-page';

/* The unsubscribe page's outcomes (moved from keep-track.spec.ts). */

afterEach(() => vi.unstubAllGlobals());

function renderPage(token: string | null, answer: Response) {
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) => Promise.resolve(answer));
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    ...renderWithApp(
      <MemoryRouter>
        <UnsubscribePage token={token} />
      </MemoryRouter>,
    ),
  };
}

describe('the unsubscribe page', () => {
  it('says why a broken link did not work, in the server’s words', async () => {
    const { fetchMock } = renderPage(
      's.not-a-real-token-at-all',
      Response.json(
        {
          error: { code: 'invalid-action-code', message: 'This unsubscribe link is not valid.' },
        },
        { status: 400 },
      ),
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This link did not work' }),
    ).toBeVisible();
    expect(screen.getByText('This unsubscribe link is not valid.')).toBeVisible();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/unsubscribe?token=s.not-a-real-token-at-all');
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('says what was turned off, and the way back to the alert settings', async () => {
    renderPage('s.good', Response.json({ what: 'alerts for your saved search "Toyota quokka"' }));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You’re unsubscribed' }),
    ).toBeVisible();
    expect(screen.getByText(/alerts for your saved search "Toyota quokka"/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'your saved searches' })).toHaveAttribute(
      'href',
      '/dashboard/searches',
    );
  });

  it('asks for the link from the mail when the token is missing, and sends nothing', () => {
    const { fetchMock } = renderPage(null, Response.json({}));
    expect(screen.getByRole('heading', { name: 'This link is not complete' })).toBeVisible();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
