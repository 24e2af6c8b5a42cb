import { screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '../../testing/render';
import ResetPasswordRoute from './reset-password';

function renderAt(address: string) {
  return renderWithApp(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/reset-password" element={<ResetPasswordRoute />} />
        <Route path="/forgot-password" element={<h1>Forgot password page</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the reset-password page (moved from accounts-sign-in.spec.ts)', () => {
  it('says that a used or expired link no longer works, and offers a new one', async () => {
    // The server sends a used-up or expired link here with ?error=INVALID_TOKEN.
    const { user } = renderAt('/reset-password?error=INVALID_TOKEN');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This password reset link has expired or has already been used.',
    );
    await user.click(screen.getByRole('link', { name: 'Ask for a new link' }));
    expect(screen.getByRole('heading', { name: 'Forgot password page' })).toBeInTheDocument();
  });

  it('asks for the link from the mail when opened without a token', () => {
    renderAt('/reset-password');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Open this page from the link in the password reset email.',
    );
  });

  it('asks for the new password when the link brought a token', () => {
    renderAt('/reset-password?token=abc123');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('New password', { exact: true })).toBeInTheDocument();
  });
});
