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

  it('says beside the email field, focused, that the address has an account already', async () => {
    const calls = answering({
      'POST /api/auth/sign-up/email': {
        status: 409,
        body: {
          error: {
            code: 'email-already-in-use',
            message: 'An account with this email already exists. Try signing in.',
          },
        },
      },
    });
    const { user } = renderRegister();
    await fillIn(user, 'seller@demo.local');

    const email = screen.getByLabelText('Email');
    await vi.waitFor(() =>
      expect(email).toHaveAccessibleDescription(expect.stringMatching(/already exists/)),
    );
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    // The account type is not recorded for an account that was not made.
    expect(calls.map(({ call }) => call)).toEqual(['POST /api/auth/sign-up/email']);
  });

  it('says beside the email field until when a deleted account holds the address (rough edge 13)', async () => {
    const held =
      'An account with this email was deleted on 7 December 2026. The address can be used for a new account from 7 January 2027.';
    answering({
      'POST /api/auth/sign-up/email': {
        status: 409,
        body: { error: { code: 'email-already-in-use', message: held, field: 'email' } },
      },
    });
    const { user } = renderRegister();
    await fillIn(user, 'gone@example.com');
    const email = screen.getByLabelText('Email');
    await vi.waitFor(() => expect(email).toHaveAccessibleDescription(held));
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
