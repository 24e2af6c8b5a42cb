import type { Booking } from '@carmarket/shared';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { serverAnswers } from '../../../testing/server-answers';
import { MyOrdersPage } from './my-orders-page';

/* A booking refunded after a dispute in My Orders (decision 044): its own state, not Paid. */

const refunded: Booking = {
  _id: '00000000-0000-4000-8000-0000000000b1',
  listingId: '00000000-0000-4000-8000-0000000000c1',
  name: '2019 Volkswagen Caddy',
  img: null,
  userName: 'Casey Carbuyer',
  userEmail: 'casey@example.com',
  userPhone: '+1 503 555 0100',
  userLocation: 'Portland',
  price: 1_250_000,
  currency: 'USD',
  status: 'refunded',
  paid: false,
  paidAt: '2026-11-20T10:00:00.000Z',
  transactionId: 'pi_refunded',
  sellerName: 'Sam Seller',
  createdAt: '2026-11-20T09:00:00.000Z',
  closedReason: null,
  handover: {
    state: 'refunded',
    releaseDueAt: '2026-11-27T10:00:00.000Z',
    releasedAt: null,
    releasedBy: null,
    refundedAt: '2026-11-22T10:00:00.000Z',
    feeCents: 62_500,
    sellerCents: 1_187_500,
    disputeId: 'd-1',
  },
};

describe('My Orders', () => {
  it('shows a refunded booking as Refunded, with its receipt and no Pay or hand-over', async () => {
    serverAnswers({
      'GET /api/auth/get-session': {
        status: 200,
        body: {
          user: {
            id: 'buyer-1',
            name: 'Casey Carbuyer',
            email: 'casey@example.com',
            roles: ['Buyer'],
            emailVerified: true,
          },
          session: { id: 's-1', expiresAt: '2099-01-01T00:00:00Z' },
        },
      },
      'GET /api/booked?email=casey%40example.com': { status: 200, body: [refunded] },
    });
    renderWithApp(
      <MemoryRouter>
        <MyOrdersPage />
      </MemoryRouter>,
    );
    const [row] = await screen.findAllByTestId('handover-status');
    expect(row).toHaveTextContent(/^Refunded on/);
    const table = screen.getByRole('table');
    expect(within(table).getByText('Refunded', { exact: true })).toBeInTheDocument();
    expect(within(table).queryByText('Paid', { exact: true })).toBeNull();
    expect(within(table).getByRole('link', { name: /Receipt/ })).toHaveAttribute(
      'href',
      `/dashboard/receipt/${refunded._id}`,
    );
    expect(within(table).queryByRole('link', { name: /Pay/ })).toBeNull();
    expect(within(table).queryByRole('button', { name: /Confirm hand-over/ })).toBeNull();
  });
});
