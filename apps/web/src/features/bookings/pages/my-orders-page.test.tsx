import type { Booking } from '@carmarket/shared';
import { screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useParams } from 'react-router';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { serverAnswers } from '../../../testing/server-answers';
import { MyOrdersPage } from './my-orders-page';

/*
 * A booking refunded after a dispute in My Orders (decision 044): its own state, not Paid. A paid
 * one's Message the seller (issue 51), while the sale's conversation is open and the car is still
 * as its sale left it (decision 050).
 */

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
  // The refund gave the car back to its seller, withdrawn (decision 044).
  carStatus: 'withdrawn',
};

const signedIn = {
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
};
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
const paid = (handover: Partial<NonNullable<Booking['handover']>>): Booking => ({
  ...refunded,
  status: 'paid',
  paid: true,
  transactionId: 'pi_paid',
  handover: {
    ...refunded.handover!,
    state: 'awaiting-handover',
    refundedAt: null,
    disputeId: null,
    ...handover,
  },
  carStatus: 'sold',
});
const CONVERSATION = '00000000-0000-4000-8000-0000000000d1';

function ThreadShown() {
  return <p>Conversation {useParams().id}</p>;
}

function renderOrders() {
  return renderWithApp(
    <MemoryRouter initialEntries={['/dashboard/orders']}>
      <Routes>
        <Route path="/dashboard/orders" element={<MyOrdersPage />} />
        <Route path="/dashboard/messages/:id" element={<ThreadShown />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('My Orders', () => {
  it('lets the buyer of a paid car write to its seller, which starts their conversation', async () => {
    const calls = serverAnswers({
      'GET /api/auth/get-session': signedIn,
      'GET /api/booked?email=casey%40example.com': { status: 200, body: [paid({})] },
      [`GET /api/conversations?listingId=${refunded.listingId}`]: {
        status: 200,
        body: { items: [], nextCursor: null },
      },
      [`POST /api/listings/${refunded.listingId}/messages`]: {
        status: 200,
        body: {
          conversationId: CONVERSATION,
          message: {
            _id: '00000000-0000-4000-8000-0000000000e1',
            conversationId: CONVERSATION,
            kind: 'text',
            body: 'When can I collect it?',
            senderName: 'Casey Carbuyer',
            mine: true,
            createdAt: '2026-11-20T11:00:00.000Z',
          },
        },
      },
    });
    const { user } = renderOrders();
    const table = await screen.findByRole('table');
    await user.click(
      await within(table).findByRole('button', {
        name: 'Message the seller of the 2019 Volkswagen Caddy',
      }),
    );
    const dialog = screen.getByRole('dialog', {
      name: 'Message Sam Seller about the 2019 Volkswagen Caddy',
    });
    await user.type(within(dialog).getByLabelText('Your message'), 'When can I collect it?');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(`Conversation ${CONVERSATION}`)).toBeInTheDocument();
    expect(calls.find((c) => c.call.startsWith('POST'))?.body).toEqual({
      body: 'When can I collect it?',
    });
  });

  it('offers Message the seller until 30 days after the money was released', async () => {
    serverAnswers({
      'GET /api/auth/get-session': signedIn,
      'GET /api/booked?email=casey%40example.com': {
        status: 200,
        body: [
          paid({ state: 'released', releasedAt: daysAgo(29), releasedBy: 'buyer' }),
          {
            ...paid({ state: 'released', releasedAt: daysAgo(31), releasedBy: 'buyer' }),
            _id: '00000000-0000-4000-8000-0000000000b2',
            name: '2015 Ford Transit',
          },
        ],
      },
    });
    renderOrders();
    const table = await screen.findByRole('table');
    expect(
      await within(table).findByRole('button', {
        name: 'Message the seller of the 2019 Volkswagen Caddy',
      }),
    ).toBeInTheDocument();
    expect(
      within(table).queryByRole('button', {
        name: 'Message the seller of the 2015 Ford Transit',
      }),
    ).toBeNull();
  });

  it('offers Message the seller only while the car is still the one its sale left', async () => {
    // Refunded two days ago: the car withdrawn by the refund, then removed by an admin, or put
    // back on sale and sold to someone else. The conversation is closed to new messages either way.
    const refundedAgo = (days: number) => ({
      ...refunded.handover!,
      refundedAt: daysAgo(days),
    });
    const other = (n: number, name: string, carStatus: Booking['carStatus']): Booking => ({
      ...refunded,
      _id: `00000000-0000-4000-8000-0000000000b${n}`,
      listingId: `00000000-0000-4000-8000-0000000000c${n}`,
      name,
      handover: refundedAgo(2),
      carStatus,
    });
    serverAnswers({
      'GET /api/auth/get-session': signedIn,
      'GET /api/booked?email=casey%40example.com': {
        status: 200,
        body: [
          { ...refunded, handover: refundedAgo(2) },
          other(2, '2015 Ford Transit', 'removed'),
          other(3, '2017 Skoda Octavia', 'sold'),
        ],
      },
    });
    renderOrders();
    const table = await screen.findByRole('table');
    expect(
      await within(table).findByRole('button', {
        name: 'Message the seller of the 2019 Volkswagen Caddy',
      }),
    ).toBeInTheDocument();
    for (const name of ['2015 Ford Transit', '2017 Skoda Octavia']) {
      for (const role of ['button', 'link'] as const) {
        expect(
          within(table).queryByRole(role, { name: `Message the seller of the ${name}` }),
        ).toBeNull();
      }
    }
  });

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
