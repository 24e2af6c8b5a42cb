import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { ChooseRoleCard } from './choose-role-card';

/** `POST /api/user` records the role; every call is kept with its JSON body. */
function serverAnswers() {
  const calls: { call: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    calls.push({
      call: `${init?.method ?? 'GET'} ${url}`,
      body: init?.body ? JSON.parse(init.body as string) : undefined,
    });
    return Response.json({ acknowledged: true });
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('choosing an account type (moved from accounts-sign-up.spec.ts)', () => {
  it('asks for Seller or Buyer before saving, then saves the one chosen', async () => {
    const calls = serverAnswers();
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
