import type { AdminUser } from '@carmarket/shared';
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { UsersTable } from './users-list';

/*
 * The admin's user table, row by row (moved from admin.spec.ts): an admin's row shows no role and
 * no buttons, a seller's offers Verify (or the Verified badge) and their cars, everyone else's
 * offers Delete.
 */

const person = (
  n: number,
  name: string,
  roles: AdminUser['roles'],
  extra: Partial<AdminUser> = {},
) =>
  ({
    _id: `00000000-0000-4000-8000-00000000000${n}`,
    name,
    email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
    role: roles[0] ?? null,
    roles,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...extra,
  }) satisfies AdminUser;

const admin = person(1, 'Ada Admin', ['admin']);
const seller = person(2, 'Sam Seller', ['Seller']);
const verified = person(3, 'Val Verified', ['Seller'], { verify: 'true' });
const buyer = person(4, 'Bo Buyer', ['Buyer']);

function renderTable(users: AdminUser[]) {
  const actions = { onVerify: vi.fn(), onDelete: vi.fn(), verifyingId: null };
  const view = renderWithApp(
    <MemoryRouter>
      <UsersTable users={users} {...actions} />
    </MemoryRouter>,
  );
  const row = (user: AdminUser) =>
    screen.getAllByTestId('user-row').find((each) => each.textContent?.includes(user.email))!;
  return { ...view, actions, row };
}

describe('the admin’s user table', () => {
  it('shows an admin’s row with no role and no buttons', () => {
    const { row } = renderTable([admin]);
    expect(within(row(admin)).queryAllByRole('button')).toHaveLength(0);
    expect(within(row(admin)).getAllByRole('cell')[1]).toHaveTextContent(/^$/);
  });

  it('offers Verify, the seller’s cars and Delete on a seller’s row, and acts on the one pressed', async () => {
    const { user, row, actions } = renderTable([seller, buyer]);
    const cells = within(row(seller)).getAllByRole('cell');
    expect(cells[1]).toHaveTextContent('Seller');
    expect(within(row(seller)).getByRole('link', { name: 'Cars of Sam Seller' })).toHaveAttribute(
      'href',
      `/dashboard/users/${seller._id}/cars`,
    );
    await user.click(within(row(seller)).getByRole('button', { name: 'Verify Sam Seller' }));
    expect(actions.onVerify).toHaveBeenCalledWith(seller);
    await user.click(within(row(seller)).getByRole('button', { name: 'Delete Sam Seller' }));
    expect(actions.onDelete).toHaveBeenCalledWith(seller);
  });

  it('shows a verified seller’s badge instead of Verify', () => {
    const { row } = renderTable([verified]);
    expect(within(row(verified)).getByText('Verified', { exact: true })).toBeVisible();
    expect(within(row(verified)).queryByRole('button', { name: /^Verify/ })).toBeNull();
  });

  it('shows a buyer’s role and Delete, with no Verify and no cars', () => {
    const { row } = renderTable([buyer]);
    expect(within(row(buyer)).getAllByRole('cell')[1]).toHaveTextContent('Buyer');
    expect(within(row(buyer)).getByRole('button', { name: 'Delete Bo Buyer' })).toBeVisible();
    expect(within(row(buyer)).queryByRole('button', { name: /^Verify/ })).toBeNull();
    expect(within(row(buyer)).queryByRole('link')).toBeNull();
  });
});
