import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import type { Session } from '../../auth';
import { BookButton, type BookButtonListing } from './book-button';
import { BookingForm } from './booking-form';

/*
 * The booking form's words and refusals, and the Book now button's states (moved from
 * buying.spec.ts): the buyer's details filled in and read-only, a phone asked for beside its
 * field, and the button that says why it does nothing (their own car, a car booked already).
 */

const car: BookButtonListing = {
  _id: '00000000-0000-4000-8000-000000000001',
  name: 'Volkswagen Type 2',
  reprice: 2_450_000,
  currency: 'USD',
  sellerId: 'seller-1',
  status: 'available',
};

afterEach(() => vi.unstubAllGlobals());

function renderForm() {
  const booking = { mutateAsync: vi.fn(() => Promise.resolve({ insertedId: 'b-1' })) };
  const onDone = vi.fn();
  const view = renderWithApp(
    <MemoryRouter>
      <BookingForm
        listing={car}
        buyer={{ name: 'Casey Carbuyer', email: 'casey@example.com' }}
        booking={booking as unknown as Parameters<typeof BookingForm>[0]['booking']}
        onDone={onDone}
      />
    </MemoryRouter>,
  );
  return { ...view, booking, onDone };
}

describe('the booking form', () => {
  it('fills in the buyer and the price, read-only, and starts at the phone', async () => {
    renderForm();
    expect(screen.getByLabelText('Name')).toHaveValue('Casey Carbuyer');
    expect(screen.getByLabelText('Email')).toHaveValue('casey@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Price')).toHaveValue('$24,500');
    await waitFor(() => expect(screen.getByLabelText('Phone')).toHaveFocus());
  });

  it('asks for a phone beside its field, and books once it has one', async () => {
    const { user, booking, onDone } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Book now' }));
    expect(await screen.findByText('Phone is required')).toBeVisible();
    expect(screen.getByLabelText('Phone')).toHaveAccessibleDescription(/Phone is required/);
    expect(booking.mutateAsync).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Phone'), '+1 503 555 0100');
    await user.type(screen.getByLabelText('Meeting location'), 'Portland, OR');
    await user.click(screen.getByRole('button', { name: 'Book now' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(booking.mutateAsync).toHaveBeenCalledWith({
      input: { listingId: car._id, userPhone: '+1 503 555 0100', userLocation: 'Portland, OR' },
      idempotencyKey: expect.any(String),
    });
    expect(screen.queryByText('Phone is required')).toBeNull();
  });
});

/** The API as Book now asks it: who is signed in, and their bookings. */
function serve(user: Session['user'], bookings: unknown[] = []) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      if (url.startsWith('/api/auth/get-session')) {
        return Promise.resolve(
          Response.json({ user, session: { id: 's-1', expiresAt: '2099-01-01T00:00:00Z' } }),
        );
      }
      if (url.startsWith('/api/booked')) return Promise.resolve(Response.json(bookings));
      return Promise.resolve(Response.json({}, { status: 404 }));
    }),
  );
}

const buyer: Session['user'] = {
  id: 'buyer-1',
  name: 'Casey Carbuyer',
  email: 'casey@example.com',
  roles: ['Buyer'],
  emailVerified: true,
};

function renderButton() {
  return renderWithApp(
    <MemoryRouter>
      <BookButton listing={car} />
    </MemoryRouter>,
  );
}

describe('the Book now button', () => {
  it('on a seller’s own car: stays focusable, says why, and opens nothing', async () => {
    serve({ ...buyer, id: 'seller-1', roles: ['Seller'] });
    const { user } = renderButton();
    const book = await screen.findByRole('button', { name: 'Book now' });
    await waitFor(() => expect(book).toHaveAccessibleDescription('This is your car'));
    expect(book).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByText('This is your car')).toBeVisible();
    await user.click(book);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByLabelText('Phone')).toBeNull();
  });

  it('on a car the buyer booked: says so, with the way to My Orders, and opens nothing', async () => {
    serve(buyer, [{ _id: 'b-1', listingId: car._id, status: 'pending' }]);
    const { user } = renderButton();
    const book = await screen.findByRole('button', { name: 'Book now' });
    await waitFor(() =>
      expect(book).toHaveAccessibleDescription('You booked this car. See My Orders'),
    );
    expect(screen.getByRole('link', { name: 'See My Orders' })).toHaveAttribute(
      'href',
      '/dashboard/orders',
    );
    await user.click(book);
    expect(screen.queryByLabelText('Phone')).toBeNull();
  });

  it('for a buyer who can book: opens the booking dialog', async () => {
    serve(buyer);
    const { user } = renderButton();
    const book = await screen.findByRole('button', { name: 'Book now' });
    await waitFor(() => expect(book).toHaveAttribute('aria-haspopup', 'dialog'));
    await user.click(book);
    expect(await screen.findByLabelText('Phone')).toBeInTheDocument();
    expect(screen.getByText(`Book the ${car.name}`)).toBeInTheDocument();
  });
});
