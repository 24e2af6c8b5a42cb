import { screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { serverAnswers, type Answer } from '../../../testing/server-answers';
import type { Session } from '../../auth';
import { DeleteSection } from './delete-section';

const options: Answer = {
  status: 200,
  body: { google: false, deletedAccountHoldDays: 30 },
};

const buyer: Session['user'] = {
  id: 'u1',
  name: 'Dee Departing',
  email: 'dee@example.com',
  roles: ['Buyer'],
  emailVerified: true,
};

function renderSection(user: Session['user'] = buyer, hasPassword: boolean | null = true) {
  return renderWithApp(
    <MemoryRouter initialEntries={['/dashboard/settings']}>
      <Routes>
        <Route
          path="/dashboard/settings"
          element={<DeleteSection user={user} hasPassword={hasPassword} />}
        />
        <Route path="/" element={<h1>Home page</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('deleting the account (moved from my-account.spec.ts)', () => {
  it('says what happens to a buyer: bookings cancelled, "Deleted user", the hold on the address', async () => {
    serverAnswers({ 'GET /api/sign-in-options': options });
    renderSection();
    const section = screen.getByRole('region', { name: 'Delete my account' });
    expect(section).toHaveTextContent('Your open bookings are cancelled');
    expect(section).toHaveTextContent('Deleted user');
    expect(section).not.toHaveTextContent('Your cars that are for sale are taken off the site');
    await vi.waitFor(() =>
      expect(section).toHaveTextContent(
        'Your email address can be used for a new account after 30 days.',
      ),
    );
  });

  it('waits to know how the account signs in before the button can be pressed', () => {
    serverAnswers({ 'GET /api/sign-in-options': options });
    renderSection(buyer, null);
    expect(screen.getByRole('button', { name: 'Delete my account…' })).toBeDisabled();
  });

  it('an administrator cannot delete their own account', () => {
    serverAnswers({ 'GET /api/sign-in-options': options });
    renderSection({ ...buyer, roles: ['admin'] });
    expect(screen.queryByRole('button', { name: 'Delete my account…' })).toBeNull();
    expect(screen.getByText(/An administrator account cannot delete itself/)).toBeVisible();
  });

  it('opens by keyboard at the password, and Keep my account closes it', async () => {
    serverAnswers({ 'GET /api/sign-in-options': options });
    const { user } = renderSection();
    const open = screen.getByRole('button', { name: 'Delete my account…' });
    expect(open).toHaveAttribute('aria-haspopup', 'dialog');
    open.focus();
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(dialog).toHaveAttribute('open');
    const password = within(dialog).getByLabelText('Your password');
    await vi.waitFor(() => expect(password).toHaveFocus());
    // It says again what happens.
    expect(dialog).toHaveAccessibleDescription(expect.stringMatching(/cannot be undone/));

    await user.click(within(dialog).getByRole('button', { name: 'Keep my account' }));
    expect(dialog).not.toHaveAttribute('open');
    expect(within(dialog).queryByLabelText('Your password')).toBeNull();
  });

  it('says a wrong password beside its field, then deletes with the right one and goes home', async () => {
    let right = false;
    const calls = serverAnswers({ 'GET /api/sign-in-options': options });
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const call = `${init?.method ?? 'GET'} ${url}`;
      const body = init?.body ? (JSON.parse(init.body as string) as { password?: string }) : {};
      calls.push({ call, body });
      if (call === 'GET /api/sign-in-options') return Response.json(options.body);
      right = body.password === 'long-enough-password-2026';
      return right
        ? Response.json({ success: true, message: 'User deleted' })
        : Response.json(
            {
              error: {
                code: 'wrong-password',
                message: 'That is not your current password.',
                field: 'password',
              },
            },
            { status: 400 },
          );
    });
    const { user } = renderSection();
    await user.click(screen.getByRole('button', { name: 'Delete my account…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    const password = within(dialog).getByLabelText('Your password');

    await user.type(password, 'not my password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    await vi.waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        expect.stringMatching(/not your current password/),
      ),
    );
    expect(password).toHaveFocus();

    await user.clear(password);
    await user.type(password, 'long-enough-password-2026');
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(calls.filter(({ call }) => call === 'POST /api/auth/delete-user').at(-1)?.body).toEqual({
      password: 'long-enough-password-2026',
    });
  });

  it('for an account without a password, mails a link instead', async () => {
    const calls = serverAnswers({
      'GET /api/sign-in-options': options,
      'POST /api/auth/delete-user': {
        status: 200,
        body: { success: true, message: 'Verification email sent' },
      },
    });
    const { user } = renderSection(buyer, false);
    await user.click(screen.getByRole('button', { name: 'Delete my account…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    expect(dialog).toHaveTextContent('we mail a link to dee@example.com instead');
    await user.click(within(dialog).getByRole('button', { name: 'Mail me the link' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'The link is on its way. Check your inbox.',
    );
    expect(calls.find(({ call }) => call === 'POST /api/auth/delete-user')?.body).toEqual({});
  });
});

describe('deleting the account, in this browser (moved from car-page-extras.spec.ts)', () => {
  it('forgets the person’s recently viewed cars, and no one else’s', async () => {
    localStorage.setItem(`recently-viewed:${buyer.id}`, JSON.stringify(['car-2']));
    localStorage.setItem('recently-viewed:admin', JSON.stringify(['car-1']));
    serverAnswers({
      'GET /api/sign-in-options': options,
      'POST /api/auth/delete-user': {
        status: 200,
        body: { success: true, message: 'User deleted' },
      },
    });
    const { user } = renderSection();
    await user.click(screen.getByRole('button', { name: 'Delete my account…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    await user.type(within(dialog).getByLabelText('Your password'), 'long-enough-password-2026');
    // Not yet deleted: the list is still there.
    expect(localStorage.getItem(`recently-viewed:${buyer.id}`)).not.toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(localStorage.getItem(`recently-viewed:${buyer.id}`)).toBeNull();
    expect(localStorage.getItem('recently-viewed:admin')).toBe(JSON.stringify(['car-1']));
  });
});
