import { formatMoney, type Balance, type PayoutAccount, type PayoutPage } from '@carmarket/shared';
import { screen, within } from '@testing-library/react';
import { BrowserRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { PayoutsPage } from './payouts-page';

/*
 * A seller's balance on Payouts, in figures and words (moved from payouts.spec.ts): money pending
 * hand-over, money ready with nowhere to send it (the hint, the notice, why no payout yet), and
 * money paid out to an account that is set up. The server is a stub.
 */

const share = 1_200_000;
const money = (cents: number) => formatMoney(cents, 'USD');

afterEach(() => vi.unstubAllGlobals());

function renderPayouts(
  balance: Omit<Balance, 'currency'>,
  account: PayoutAccount['status'],
  payouts: PayoutPage['items'] = [],
) {
  vi.stubGlobal('fetch', (input: string) => {
    const path = new URL(input, 'http://localhost').pathname;
    if (path === '/api/my/balance')
      return Promise.resolve(Response.json({ ...balance, currency: 'USD' }));
    if (path === '/api/my/payout-account') {
      return Promise.resolve(Response.json({ status: account, provider: 'sandbox' }));
    }
    if (path === '/api/my/payouts') {
      return Promise.resolve(Response.json({ items: payouts, nextCursor: null }));
    }
    return Promise.resolve(
      Response.json({ error: { code: 'not-found', message: path } }, { status: 404 }),
    );
  });
  window.history.replaceState(null, '', '/dashboard/payouts');
  return renderWithApp(
    <BrowserRouter>
      <PayoutsPage />
    </BrowserRouter>,
  );
}

/** A figure of the balance, and its hint: the `dd`s after its `dt`. */
async function figure(label: string) {
  const term = await within(await screen.findByTestId('balance')).findByText(label);
  const value = term.nextElementSibling!;
  return { value: value.textContent, hint: value.nextElementSibling?.textContent };
}

describe('Payouts: the balance', () => {
  it('money paid by a buyer waits for hand-over; no notice, no payout yet', async () => {
    renderPayouts({ pending: share, payable: 0, paidOut: 0 }, 'none');
    expect((await figure('Pending hand-over')).value).toBe(money(share));
    expect((await figure('Ready to pay out')).value).toBe(money(0));
    expect(await screen.findByText('No payouts yet')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Once a buyer confirms they have a car you sold, your share is paid out and shows here.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('payout-account-notice')).toBeNull();
  });

  it('money ready with no payout account: the hint, the notice and the empty list say so', async () => {
    renderPayouts({ pending: 0, payable: share, paidOut: 0 }, 'none');
    const ready = await figure('Ready to pay out');
    expect(ready.value).toBe(money(share));
    expect(ready.hint).toBe(
      'Yours since hand-over or a ruling; it waits for a payout account. Add a payout account to be paid.',
    );
    expect((await figure('Pending hand-over')).value).toBe(money(0));
    expect(await screen.findByTestId('payout-account-notice')).toHaveTextContent(
      'Add your payout account',
    );
    expect(await screen.findByText('No payouts yet')).toBeInTheDocument();
    expect(screen.getByText(/there is no payout account to send it to/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add payout account' })).toBeInTheDocument();
  });

  it('paid out to an account that is set up: the figure, the hint and the payout with its fee', async () => {
    renderPayouts({ pending: 0, payable: 0, paidOut: share }, 'ready', [
      {
        _id: '00000000-0000-4000-8000-000000000001',
        bookingId: '00000000-0000-4000-8000-000000000002',
        carName: 'VW Multivan',
        amount: share,
        feeCents: 50_000,
        currency: 'USD',
        status: 'paid',
        provider: 'sandbox',
        transferId: null,
        createdAt: '2026-11-20T10:00:00.000Z',
        paidAt: '2026-11-20T10:00:00.000Z',
      },
    ]);
    expect((await figure('Paid out')).value).toBe(money(share));
    expect((await figure('Ready to pay out')).hint).toBe(
      'Yours since hand-over or a ruling; on its way to your payout account.',
    );
    const row = await screen.findByRole('row', { name: /VW Multivan/ });
    expect(row).toHaveTextContent(money(share));
    expect(row).toHaveTextContent(money(50_000));
    expect(row).toHaveTextContent('Paid');
    expect(screen.getByText(/Payouts go to your account/)).toBeInTheDocument();
    expect(screen.queryByTestId('payout-account-notice')).toBeNull();
  });
});
