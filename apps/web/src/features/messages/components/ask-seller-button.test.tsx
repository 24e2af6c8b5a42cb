import type { Conversation } from '@carmarket/shared';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { serverAnswers } from '../../../testing/server-answers';
import { AskSellerButton } from './ask-seller-button';

/*
 * The car page's button once the buyer has a conversation about the car: it leads there, and
 * says why no message can be sent when it is closed, e.g. their purchase settled long ago
 * (issue 51).
 */

const CAR = '00000000-0000-4000-8000-0000000000c1';
const conversation: Conversation = {
  _id: '00000000-0000-4000-8000-0000000000d1',
  car: {
    _id: CAR,
    name: '2019 Volkswagen Caddy',
    img: null,
    reprice: 1_250_000,
    currency: 'USD',
    status: 'sold',
  },
  you: 'buyer',
  otherName: 'Sam Seller',
  buyerName: 'Casey Carbuyer',
  sellerName: 'Sam Seller',
  lastMessage: null,
  unread: 0,
  closedReason: 'sale-settled',
  otherReadUpTo: null,
  lastActivityAt: '2026-10-01T10:00:00.000Z',
  createdAt: '2026-10-01T10:00:00.000Z',
};

describe('Ask the seller, with a conversation already', () => {
  it('leads to it and says a sale settled over 30 days ago closed it', async () => {
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
      [`GET /api/conversations?listingId=${CAR}`]: {
        status: 200,
        body: { items: [conversation], nextCursor: null },
      },
    });
    renderWithApp(
      <MemoryRouter>
        <AskSellerButton
          listing={{
            _id: CAR,
            name: '2019 Volkswagen Caddy',
            seller: 'Sam Seller',
            sellerId: 'seller-1',
            status: 'sold',
          }}
        />
      </MemoryRouter>,
    );
    expect(
      await screen.findByRole('link', { name: 'Your conversation with Sam Seller' }),
    ).toHaveAttribute('href', `/dashboard/messages/${conversation._id}`);
    expect(
      screen.getByText(
        'This sale was settled more than 30 days ago, so this conversation is closed to new messages.',
      ),
    ).toBeInTheDocument();
  });
});
