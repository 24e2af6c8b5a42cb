import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { serverAnswers } from '../../../testing/server-answers';
import type { Session } from '../../auth';
import { PasswordSection } from './password-section';

const person: Session['user'] = {
  id: 'u1',
  name: 'Wes Wrong',
  email: 'wes@example.com',
  roles: ['Buyer'],
  emailVerified: true,
};

async function changePassword(user: ReturnType<typeof renderWithApp>['user'], current: string) {
  await user.type(screen.getByLabelText('Current password'), current);
  await user.type(
    screen.getByLabelText('New password', { exact: true }),
    'a fresh passphrase 2026',
  );
  await user.type(screen.getByLabelText('New password again'), 'a fresh passphrase 2026');
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('changing the password (moved from my-account.spec.ts)', () => {
  it('says a wrong current password beside its field, which takes focus', async () => {
    const calls = serverAnswers({
      'POST /api/auth/change-password': {
        status: 400,
        body: {
          error: {
            code: 'wrong-password',
            message: 'That is not your current password.',
            field: 'currentPassword',
          },
        },
      },
    });
    const { user } = renderWithApp(<PasswordSection user={person} hasPassword />);
    await changePassword(user, 'not my password');

    const current = screen.getByLabelText('Current password');
    await vi.waitFor(() =>
      expect(current).toHaveAccessibleDescription(
        expect.stringMatching(/not your current password/),
      ),
    );
    expect(current).toHaveFocus();
    expect(current).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toEqual([
      {
        call: 'POST /api/auth/change-password',
        body: { currentPassword: 'not my password', newPassword: 'a fresh passphrase 2026' },
      },
    ]);
  });

  it('refuses a second new password that differs, before sending', async () => {
    const calls = serverAnswers({});
    const { user } = renderWithApp(<PasswordSection user={person} hasPassword />);
    await user.type(screen.getByLabelText('Current password'), 'my password 2026');
    await user.type(
      screen.getByLabelText('New password', { exact: true }),
      'a fresh passphrase 2026',
    );
    await user.type(screen.getByLabelText('New password again'), 'another passphrase 2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() =>
      expect(screen.getByLabelText('New password again')).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(calls).toEqual([]);
  });

  it('empties the form once the password is changed', async () => {
    serverAnswers({
      'POST /api/auth/change-password': { status: 200, body: { token: null } },
      'GET /api/auth/get-session': { status: 200, body: null },
    });
    const { user } = renderWithApp(<PasswordSection user={person} hasPassword />);
    await changePassword(user, 'my password 2026');
    await vi.waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
    expect(screen.getByLabelText('New password again')).toHaveValue('');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers a link to set a password to an account that signs in with Google only', () => {
    renderWithApp(<PasswordSection user={person} hasPassword={false} />);
    expect(screen.queryByLabelText('Current password')).toBeNull();
    expect(screen.getByRole('button', { name: 'Mail me a link to set a password' })).toBeVisible();
  });
});
