import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { serverAnswers } from '../../../testing/server-answers';
import { ChooseRoleCard } from './choose-role-card';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('choosing an account type (moved from accounts-sign-up.spec.ts)', () => {
  it('asks for Seller or Buyer before saving, then saves the one chosen', async () => {
    // `POST /api/user` records the role.
    const calls = serverAnswers({}, { status: 200, body: { acknowledged: true } });
    const { user } = renderWithApp(<ChooseRoleCard email="half@example.com" />);
    const card = screen.getByRole('region', { name: 'Choose your account type' });

    await user.click(within(card).getByRole('button', { name: 'Save account type' }));
    const alert = within(card).getByRole('alert');
    expect(alert).toHaveTextContent('Please choose Seller or Buyer.');
    expect(alert).toHaveFocus();
    expect(calls).toEqual([]);

    await user.click(within(card).getByRole('radio', { name: /Seller/ }));
    await user.click(within(card).getByRole('button', { name: 'Save account type' }));
    await vi.waitFor(() =>
      expect(calls[0]).toEqual({
        call: 'POST /api/user',
        body: { email: 'half@example.com', role: 'Seller' },
      }),
    );
    expect(within(card).queryByRole('alert')).toBeNull();
  });
});
