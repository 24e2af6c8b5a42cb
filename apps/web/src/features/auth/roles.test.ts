import { describe, expect, it } from 'vitest';

import { canOpen, rolesLabel, rolesName } from './roles';

describe('roles', () => {
  it('lets each role open its own pages and admins open every page', () => {
    expect(canOpen(['Buyer'], ['Buyer'])).toBe(true);
    expect(canOpen(['Seller'], ['Buyer'])).toBe(false);
    expect(canOpen(['Buyer'], ['admin'])).toBe(false);
    expect(canOpen(['admin'], ['Buyer'])).toBe(true);
    expect(canOpen(['admin'], ['Seller'])).toBe(true);
  });

  it('lets an account holding two roles open the pages of each', () => {
    expect(canOpen(['Buyer', 'Seller'], ['Seller'])).toBe(true);
    expect(canOpen(['Buyer', 'Seller'], ['Buyer'])).toBe(true);
    expect(canOpen(['Buyer', 'Seller'], ['admin'])).toBe(false);
  });

  it('keeps an account without a role out of role pages, but not out of the others', () => {
    expect(canOpen([], ['Seller'])).toBe(false);
    expect(canOpen(null, ['Seller'])).toBe(false);
    expect(canOpen([], undefined)).toBe(true);
  });

  it('names who a page is for', () => {
    expect(rolesLabel(['Seller'])).toBe('Seller accounts');
    expect(rolesLabel(['Seller', 'Buyer'])).toBe('Seller or Buyer accounts');
    expect(rolesLabel(['admin'])).toBe('administrators');
  });

  it('names what an account is', () => {
    expect(rolesName(['Buyer'])).toBe('Buyer');
    expect(rolesName(['Buyer', 'Seller'])).toBe('Buyer and Seller');
    expect(rolesName(['admin'])).toBe('Administrator');
    expect(rolesName([])).toBe('No account type yet');
  });
});
