import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import type { Session } from '../../auth';
import { EmailSection } from './email-section';

const PASSWORD = 'long-enough-password-2026';

/**
 * `POST /api/auth/change-email` as the server answers it: the right password mails the link
 * (`{ status: true }`), a wrong one is refused beside its field. Calls kept with their bodies.
 */
function serverChangesEmail() {
  const calls: { call: string; body: Record<string, unknown> }[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const body = JSON.parse((init?.body as string | undefined) ?? '{}') as Record<string, unknown>;
    calls.push({ call: `${init?.method ?? 'GET'} ${url}`, body });
    if (body.currentPassword !== undefined && body.currentPassword !== PASSWORD) {
      return Response.json(
        {
          error: {
            code: 'wrong-password',
            message: 'That is not your current password.',
            field: 'currentPassword',
          },
        },
        { status: 400 },
      );
    }
    return Response.json({ status: true });
  });
  return calls;
}

const person: Session['user'] = {
  id: 'u1',
  name: 'Mo Moving',
  email: 'mo@example.com',
  roles: ['Buyer'],
  emailVerified: true,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('changing the address (moved from my-account.spec.ts)', () => {
  it('asks for the password, refuses a wrong one, then says where the link went', async () => {
    const calls = serverChangesEmail();
    const { user } = renderWithApp(<EmailSection user={person} hasPassword />);
    const section = screen.getByRole('region', { name: 'Email address' });
    expect(section).toHaveTextContent('Confirmed');
    const send = within(section).getByRole('button', { name: 'Send the confirmation link' });

    await user.type(within(section).getByLabelText('New email address'), 'moved@example.com');
    await user.click(send);
    const password = within(section).getByLabelText('Your password');
    await vi.waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        expect.stringMatching(/Enter your current password/),
      ),
    );
    expect(calls).toEqual([]);

    await user.type(password, 'not my password');
    await user.click(send);
    await vi.waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        expect.stringMatching(/not your current password/),
      ),
    );
    expect(password).toHaveFocus();

    await user.clear(password);
    await user.type(password, PASSWORD);
    await user.click(send);
    const sent = await within(section).findByRole('status');
    expect(sent).toHaveTextContent(
      'We sent a link to moved@example.com. Your address changes when you open it; until then you sign in with mo@example.com.',
    );
    expect(calls.at(-1)).toEqual({
      call: 'POST /api/auth/change-email',
      body: { newEmail: 'moved@example.com', currentPassword: PASSWORD },
    });
    // The form is emptied for another change.
    expect(within(section).getByLabelText('New email address')).toHaveValue('');
  });

  it('does not ask an account without a password for one', async () => {
    const calls = serverChangesEmail();
    const { user } = renderWithApp(<EmailSection user={person} hasPassword={false} />);
    expect(screen.queryByLabelText('Your password')).toBeNull();
    await user.type(screen.getByLabelText('New email address'), 'moved@example.com');
    await user.click(screen.getByRole('button', { name: 'Send the confirmation link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'We sent a link to moved@example.com',
    );
    expect(calls[0]?.body).toEqual({ newEmail: 'moved@example.com' });
  });

  it('asks to confirm an address not confirmed yet, and can send the link again', () => {
    serverChangesEmail();
    renderWithApp(<EmailSection user={{ ...person, emailVerified: false }} hasPassword />);
    expect(screen.getByText('Not confirmed yet')).toBeVisible();
    expect(screen.getByText(/Open the link we mailed to this address/)).toBeVisible();
  });
});
