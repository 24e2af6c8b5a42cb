import { screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { SignInForm } from './sign-in-form';

/** `POST /api/auth/sign-in/email` answers `status` with `body`, as the server does. */
function signInAnswers(status: number, body: unknown) {
  const fetchMock = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The server's error answer (`{ error: { code, message } }`, apps/server/src/plugins/errors.ts). */
const refused = (code: string, message: string) => ({ error: { code, message } });

function renderSignIn(next: string | null = null) {
  return renderWithApp(
    <MemoryRouter initialEntries={['/login']}>
      <Routes>
        <Route path="/login" element={<SignInForm next={next} />} />
        <Route path="/" element={<h1>Home page</h1>} />
        <Route path="/dashboard/orders" element={<h1>My Orders page</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

async function signIn(user: ReturnType<typeof renderSignIn>['user'], password: string) {
  await user.type(screen.getByLabelText('Email'), 'pat@example.com');
  await user.type(screen.getByLabelText('Password', { exact: true }), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the sign-in form (moved from accounts-sign-in.spec.ts and accounts-sign-up.spec.ts)', () => {
  it('explains a wrong password at the top of the form, focused, and stays on the page', async () => {
    const fetchMock = signInAnswers(
      401,
      refused('wrong-password', 'That email and password do not match an account.'),
    );
    const { user } = renderSignIn();
    await signIn(user, 'not the password');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('That email and password do not match an account.');
    expect(alert).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(screen.queryByRole('heading', { name: 'Home page' })).toBeNull();
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/auth/sign-in/email');
    expect(JSON.parse(init?.body as string)).toEqual({
      email: 'pat@example.com',
      password: 'not the password',
    });
  });

  it('says when an address is held after too many wrong passwords, and what still works', async () => {
    const locked =
      'Too many wrong passwords. Please try again in 15 minutes, or sign in with a link we email you, or reset your password: both still work.';
    signInAnswers(429, {
      error: { code: 'too-many-requests', message: locked, retryAfterSeconds: 900 },
    });
    const { user } = renderSignIn();
    await signIn(user, 'a guess');
    expect(await screen.findByRole('alert')).toHaveTextContent(locked);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('says until when a deleted account holds its address (rough edge 13)', async () => {
    const gone =
      'This account was deleted on 7 December 2026. Its email address can be used for a new account from 7 January 2027.';
    signInAnswers(403, refused('user-disabled', gone));
    const { user } = renderSignIn();
    await signIn(user, 'the right password');
    expect(await screen.findByRole('alert')).toHaveTextContent(gone);
  });

  it('says when an account has been disabled', async () => {
    signInAnswers(403, refused('user-disabled', 'This account has been disabled.'));
    const { user } = renderSignIn();
    await signIn(user, 'the right password');
    expect(await screen.findByRole('alert')).toHaveTextContent('This account has been disabled.');
  });

  it('says the same message again when the same wrong password is sent twice', async () => {
    signInAnswers(
      401,
      refused('wrong-password', 'That email and password do not match an account.'),
    );
    const { user } = renderSignIn();
    await signIn(user, 'not the password');
    await screen.findByRole('alert');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That email and password do not match an account.',
    );
  });

  it('goes on to the page that asked for it with the right password', async () => {
    signInAnswers(200, { redirect: false, user: { id: 'u1', email: 'pat@example.com' } });
    const { user } = renderSignIn('/dashboard/orders');
    await signIn(user, 'the right password');
    expect(await screen.findByRole('heading', { name: 'My Orders page' })).toBeInTheDocument();
  });

  it('shows and hides the password', async () => {
    const { user } = renderSignIn();
    const password = screen.getByLabelText('Password', { exact: true });
    await user.type(password, 'secret words');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(password).toHaveValue('secret words');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });
});
