import { describe, expect, it } from 'vitest';

import { menuFor } from './menu';

const labels = (roles: Parameters<typeof menuFor>[0]) =>
  menuFor(roles).flatMap((section) => section.entries.map((entry) => entry.label));

describe('dashboard menu', () => {
  it('gives buyers My Orders, Messages, Saved cars and Saved searches, and their account', () => {
    expect(labels(['Buyer'])).toEqual([
      'My Orders',
      'Messages',
      'Saved cars',
      'Saved searches',
      'My account',
    ]);
  });

  it('gives sellers Add a car, My cars, Payouts and Messages, and their account', () => {
    expect(labels(['Seller'])).toEqual([
      'Add a car',
      'My cars',
      'Payouts',
      'Messages',
      'My account',
    ]);
  });

  it('gives an account that buys and sells the pages of both, and Messages once', () => {
    expect(labels(['Buyer', 'Seller'])).toEqual([
      'Add a car',
      'My cars',
      'Payouts',
      'My Orders',
      'Messages',
      'Saved cars',
      'Saved searches',
      'My account',
    ]);
  });

  it('gives admins the user lists, the categories, the reports, the disputes and the seller and buyer pages too, but no saved cars or messages', () => {
    expect(labels(['admin'])).toEqual([
      'All Users',
      'All Sellers',
      'All Buyers',
      'Categories',
      'Audit Log',
      'Reports',
      'Disputes',
      'Add a car',
      'My cars',
      'My Orders',
      'My account',
    ]);
    const links = menuFor(['admin']).flatMap((section) => section.entries.map((entry) => entry.to));
    expect(links).toContain('/dashboard/allUser?role=Seller');
  });

  it('gives an account without a role only its account until it chooses one', () => {
    expect(labels([])).toEqual(['My account']);
  });
});
