import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { GoogleButton } from './google-button';

/**
 * `GET /api/sign-in-options` answers whether the server has Google sign-in; `POST
 * /api/auth/sign-in/social` the address of Google's page. Every call is kept in `calls`.
 */
function serverOffers(google: boolean) {
  const calls: { call: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const call = `${init?.method ?? 'GET'} ${url}`;
    calls.push({ call, body: init?.body ? JSON.parse(init.body as string) : undefined });
    const body =
      call === 'GET /api/sign-in-options'
        ? { google }
        : { url: 'https://accounts.google.com/o/oauth2/auth', redirect: true };
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Continue with Google (moved from accounts-sign-up.spec.ts, rough edge 4)', () => {
  it('is not offered, nor its "or", when the server has no Google sign-in', async () => {
    const calls = serverOffers(false);
    renderWithApp(
      <div>
        <p>The form</p>
        <GoogleButton next={null} />
      </div>,
    );
    await vi.waitFor(() =>
      expect(calls.map(({ call }) => call)).toEqual(['GET /api/sign-in-options']),
    );
    // The answer has come and been read: still nothing.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).toBeNull();
    expect(screen.queryByText('or', { exact: true })).toBeNull();
  });

  it('is offered when the server has Google sign-in, with the note the register page gives', async () => {
    serverOffers(true);
    renderWithApp(
      <GoogleButton next={null} note="A new account made with Google is a Buyer account." />,
    );
    const google = await screen.findByRole('button', { name: 'Continue with Google' });
    expect(screen.getByText('or', { exact: true })).toBeVisible();
    expect(google).toHaveAccessibleDescription(
      'A new account made with Google is a Buyer account.',
    );
  });

  it('asks Google to send people back to the page they came from', async () => {
    const calls = serverOffers(true);
    // The browser leaves for Google's page: here it only says where it would go.
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    const { user } = renderWithApp(<GoogleButton next="/blog/how-to-inspect-a-used-car" />);
    await user.click(await screen.findByRole('button', { name: 'Continue with Google' }));

    await vi.waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://accounts.google.com/o/oauth2/auth'),
    );
    expect(calls.find(({ call }) => call === 'POST /api/auth/sign-in/social')?.body).toEqual({
      provider: 'google',
      callbackURL: '/dashboard?google=1&next=%2Fblog%2Fhow-to-inspect-a-used-car',
      errorCallbackURL: '/login?next=/blog/how-to-inspect-a-used-car',
    });
    expect(screen.getByRole('button', { name: 'Opening Google…' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
  });
});
