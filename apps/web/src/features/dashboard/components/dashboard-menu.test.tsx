import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { DashboardMenu } from './dashboard-menu';

function renderMenuAt(address: string) {
  return renderWithApp(
    <MemoryRouter initialEntries={[address]}>
      <DashboardMenu name="Ada Admin" roles={['admin']} rolesName="Admin" onNavigate={() => {}} />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  // The unread count the Messages entry would show: none.
  vi.stubGlobal('fetch', async () => Response.json({ unread: 0 }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the dashboard menu: the page shown (moved from accounts-roles.spec.ts)', () => {
  it('marks All Sellers, not All Users, on the user list filtered to sellers', () => {
    renderMenuAt('/dashboard/allUser?role=Seller');
    expect(screen.getByRole('link', { name: 'All Sellers' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.getByRole('link', { name: 'All Users' })).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Overview' })).not.toHaveAttribute('aria-current');
  });

  it('marks All Users on the list unfiltered, and the Overview on the dashboard', () => {
    renderMenuAt('/dashboard/allUser');
    expect(screen.getByRole('link', { name: 'All Users' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'All Sellers' })).not.toHaveAttribute('aria-current');
  });

  it('names the person and what the account is', () => {
    renderMenuAt('/dashboard');
    expect(screen.getByText('Ada Admin')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: 'My account' })).toHaveAttribute(
      'href',
      '/dashboard/settings',
    );
  });
});
