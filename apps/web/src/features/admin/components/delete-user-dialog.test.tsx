import type { AdminUser } from '@carmarket/shared';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { DeleteUserDialog } from './delete-user-dialog';

/* The confirm dialog before an account is closed (moved from admin.spec.ts). */

const buyer: AdminUser = {
  _id: '00000000-0000-4000-8000-000000000004',
  name: 'Dana Deleted',
  email: 'dana@example.com',
  role: 'Buyer',
  roles: ['Buyer'],
  createdAt: '2026-03-01T10:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

function renderDialog(user: AdminUser) {
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) =>
    Promise.resolve(Response.json({ acknowledged: true, deletedCount: 1 })),
  );
  vi.stubGlobal('fetch', fetchMock);
  const onClose = vi.fn();
  const view = renderWithApp(
    <DeleteUserDialog user={user} onClose={onClose} onDeleted={() => {}} />,
  );
  return { ...view, fetchMock, onClose };
}

describe('deleting a user', () => {
  it('names the person and says what happens to their sign-in and bookings', () => {
    renderDialog(buyer);
    expect(screen.getByText('Delete Dana Deleted?')).toBeInTheDocument();
    expect(
      screen.getByText(/Dana Deleted \(dana@example.com\) can no longer sign in/),
    ).toBeInTheDocument();
    expect(screen.getByText(/open bookings are cancelled/)).toBeInTheDocument();
    // A buyer has no cars to take off the site.
    expect(screen.queryByText(/Their cars on sale are removed/)).toBeNull();
  });

  it('says a seller’s cars on sale go too', () => {
    renderDialog({ ...buyer, name: 'Sam Seller', role: 'Seller', roles: ['Seller'] });
    expect(screen.getByText(/Their cars on sale are removed/)).toBeInTheDocument();
  });

  it('deletes the account on Delete user, and closes', async () => {
    const { user, fetchMock, onClose } = renderDialog(buyer);
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/user/remove/${buyer._id}`,
      expect.objectContaining({ method: 'DELETE' }),
    );
  });
});
