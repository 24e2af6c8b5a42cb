import { describe, expect, it } from 'vitest';

import { menuFor } from './menu';

const labels = (role: Parameters<typeof menuFor>[0]) =>
  menuFor(role).flatMap((section) => section.entries.map((entry) => entry.label));

describe('dashboard menu', () => {
  it('gives buyers My Orders only', () => {
    expect(labels('Buyer')).toEqual(['My Orders']);
  });

  it('gives sellers Add Product and My Products', () => {
    expect(labels('Seller')).toEqual(['Add Product', 'My Products']);
  });

  it('gives admins the user lists and the seller and buyer pages too', () => {
    expect(labels('admin')).toEqual([
      'All Users',
      'All Sellers',
      'All Buyers',
      'Audit Log',
      'Add Product',
      'My Products',
      'My Orders',
    ]);
    const links = menuFor('admin').flatMap((section) => section.entries.map((entry) => entry.to));
    expect(links).toContain('/dashboard/allUser?role=Seller');
  });

  it('gives an account without a role nothing until it chooses one', () => {
    expect(menuFor(null)).toEqual([]);
  });
});
