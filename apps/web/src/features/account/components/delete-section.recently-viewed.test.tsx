import { screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import type { Session } from '../../auth';
import { DeleteSection } from './delete-section';

/*
 * A deleted account leaves nothing of itself in this browser for the next person (moved from
 * car-page-extras.spec.ts): its recently viewed list goes, another person's on the same browser
 * stays.
 */

const buyer: Session['user'] = {
  id: 'della',
  name: 'Della Deleting',
  email: 'della@example.com',
  roles: ['Buyer'],
  emailVerified: true,
};

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('deleting the account, in this browser', () => {
  it('forgets the person’s recently viewed cars, and no one else’s', async () => {
    localStorage.setItem('recently-viewed:della', JSON.stringify(['car-2']));
    localStorage.setItem('recently-viewed:admin', JSON.stringify(['car-1']));
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const call = `${init?.method ?? 'GET'} ${url}`;
      if (call === 'GET /api/sign-in-options')
        return Response.json({ google: false, deletedAccountHoldDays: 30 });
      if (call === 'POST /api/auth/delete-user')
        return Response.json({ success: true, message: 'User deleted' });
      return Response.json({}, { status: 404 });
    });
    const { user } = renderWithApp(
      <MemoryRouter initialEntries={['/dashboard/settings']}>
        <Routes>
          <Route
            path="/dashboard/settings"
            element={<DeleteSection user={buyer} hasPassword={true} />}
          />
          <Route path="/" element={<h1>Home page</h1>} />
        </Routes>
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('button', { name: 'Delete my account…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });
    await user.type(within(dialog).getByLabelText('Your password'), 'long-enough-password-2026');
    // Not yet deleted: the list is still there.
    expect(localStorage.getItem('recently-viewed:della')).not.toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('heading', { name: 'Home page' })).toBeInTheDocument();
    expect(localStorage.getItem('recently-viewed:della')).toBeNull();
    expect(localStorage.getItem('recently-viewed:admin')).toBe(JSON.stringify(['car-1']));
  });
});
