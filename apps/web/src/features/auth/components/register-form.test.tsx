import { screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { serverAnswers, type Answer } from '../../../testing/server-answers';
import { RegisterForm } from './register-form';

/** The server as the form meets it: each call answers as given, any other 200 `{}`. */
const answering = (answers: Record<string, Answer>) =>
  serverAnswers(answers, { status: 200, body: {} });

function renderRegister(next: string | null = null) {
  return renderWithApp(
    <MemoryRouter initialEntries={['/register']}>
      <Routes>
        <Route path="/register" element={<RegisterForm next={next} />} />
        <Route path="/" element={<h1>Home page</h1>} />
        <Route path="/blog/how-to-inspect-a-used-car" element={<h1>The blog post</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

async function fillIn(user: ReturnType<typeof renderRegister>['user'], email: string) {
  await user.type(screen.getByLabelText('Name'), 'Copy Seller');
  await user.selectOptions(screen.getByLabelText('Account type'), 'Seller');
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(
    screen.getByLabelText('Password', { exact: true }),
    'a long enough password 2026',
  );
  await user.click(screen.getByRole('button', { name: 'Create account' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the register form (moved from accounts-sign-up.spec.ts)', () => {
  it('explains what is missing beside each field, and sends nothing', async () => {
    const calls = answering({});
    const { user } = renderRegister();
    await user.click(screen.getByRole('button', { name: 'Create account' }));

    const name = screen.getByLabelText('Name');
    expect(name).toHaveFocus();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(expect.stringMatching(/Name is required/));
    expect(screen.getByLabelText('Account type')).toHaveAccessibleDescription(
      expect.stringMatching(/Please choose Seller or Buyer/),
    );
    expect(calls).toEqual([]);
  });

  it('says to check the mail when the sign-up began no session (the address has an account)', async () => {
    // The server answers a taken address as a new sign-up, without a session (decision 044): the
    // account type cannot be recorded, and the owner of the address was mailed.
    const calls = answering({
      'POST /api/auth/sign-up/email': {
        status: 200,
        body: { user: { id: 'u-1', name: 'Copy Seller', email: 'seller@demo.local' } },
      },
      'POST /api/user': {
        status: 401,
        body: { error: { code: 'unauthenticated', message: 'Please sign in.' } },
      },
    });
    const { user } = renderRegister('/blog/how-to-inspect-a-used-car');
    await fillIn(user, 'seller@demo.local');

    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent('Check your mail');
    expect(status).toHaveTextContent('We sent a message to seller@demo.local');
    expect(screen.getByRole('link', { name: 'sign in' })).toHaveAttribute(
      'href',
      '/login?next=/blog/how-to-inspect-a-used-car',
    );
    // Not "your account was created": the form is gone, nobody was signed in.
    expect(screen.queryByRole('button', { name: 'Create account' })).toBeNull();
    expect(screen.queryByText(/was created/)).toBeNull();
    expect(calls.map(({ call }) => call)).toEqual([
      'POST /api/auth/sign-up/email',
      'POST /api/user',
    ]);
  });

  it('creates the account, records its type, then goes back to the page it came from', async () => {
    const calls = answering({});
    const { user } = renderRegister('/blog/how-to-inspect-a-used-car');
    await fillIn(user, 'new@example.com');
    expect(await screen.findByRole('heading', { name: 'The blog post' })).toBeInTheDocument();
    expect(calls.slice(0, 2)).toEqual([
      {
        call: 'POST /api/auth/sign-up/email',
        body: {
          name: 'Copy Seller',
          email: 'new@example.com',
          password: 'a long enough password 2026',
        },
      },
      {
        call: 'POST /api/user',
        body: { name: 'Copy Seller', email: 'new@example.com', role: 'Seller' },
      },
    ]);
  });
});
