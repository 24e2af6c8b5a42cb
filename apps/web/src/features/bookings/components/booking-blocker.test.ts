import { describe, expect, it } from 'vitest';

import type { Session } from '../../auth';
import { bookingBlocker } from './book-button';

const person = (roles: Session['user']['roles'], emailVerified = true): Session['user'] => ({
  id: 'me',
  name: 'Pat',
  email: 'pat@example.com',
  roles,
  emailVerified,
});
const onSale = { sellerId: 'someone', status: 'available' as const };

describe('why someone cannot book a car', () => {
  it('lets a buyer book, and an account that buys and sells too', () => {
    expect(bookingBlocker(person(['Buyer']), onSale)).toBeNull();
    expect(bookingBlocker(person(['Seller', 'Buyer']), onSale)).toBeNull();
  });

  it('says only buyer accounts book', () => {
    expect(bookingBlocker(person(['Seller']), onSale)?.reason).toBe(
      'Only buyer accounts can book cars',
    );
    expect(bookingBlocker(person([]), onSale)?.reason).toBe('Only buyer accounts can book cars');
  });

  it('asks for a confirmed address when the site requires one, with a way to get the link', () => {
    const blocker = bookingBlocker(person(['Buyer'], false), onSale, undefined, true);
    expect(blocker?.reason).toMatch(/Confirm your email address/);
    expect(blocker?.link?.to).toBe('/dashboard/settings');
    // Only when the site requires it.
    expect(bookingBlocker(person(['Buyer'], false), onSale, undefined, false)).toBeNull();
  });
});
