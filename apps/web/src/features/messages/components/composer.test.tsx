import { MESSAGE_MAX_LENGTH } from '@carmarket/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { Composer } from './composer';

/*
 * The message composer's states (moved from messages.spec.ts): Send says why it cannot act, Enter
 * sends and Shift+Enter starts a line, the draft is kept when the thread is left, and a sent
 * message empties it.
 */

const ID = '00000000-0000-4000-8000-0000000000c1';
let sent: { url: string; body: unknown }[];

beforeEach(() => {
  sessionStorage.clear();
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const body = JSON.parse(init?.body as string) as { body: string };
      sent.push({ url, body });
      return Promise.resolve(
        Response.json({
          message: {
            _id: `m-${sent.length}`,
            conversationId: ID,
            body: body.body,
            createdAt: '2026-03-01T10:00:00.000Z',
          },
        }),
      );
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const field = () => screen.getByTestId('composer');
const sendButton = () => screen.getByRole('button', { name: /^Send/ });

describe('the message composer', () => {
  it('keeps Send grey with the reason while there is nothing to send', async () => {
    const { user } = renderWithApp(<Composer conversationId={ID} />);
    expect(field()).toHaveAccessibleName('Your message');
    expect(sendButton()).toHaveAttribute('aria-disabled', 'true');
    expect(sendButton()).toHaveAccessibleDescription(
      'Write a message to send it. Enter sends; Shift+Enter starts a new line.',
    );
    await user.type(field(), '   {Enter}');
    expect(sent).toHaveLength(0);
  });

  it('sends on Enter, starts a line on Shift+Enter, and empties once sent', async () => {
    const { user } = renderWithApp(<Composer conversationId={ID} />);
    await user.type(field(), 'Yes, at 60,000 miles.{Shift>}{Enter}{/Shift}Cambelt too.');
    expect(field()).toHaveValue('Yes, at 60,000 miles.\nCambelt too.');
    expect(sendButton()).not.toHaveAttribute('aria-disabled');
    expect(sendButton()).toHaveAccessibleDescription('Enter sends; Shift+Enter starts a new line.');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(field()).toHaveValue(''));
    expect(sent).toEqual([
      {
        url: `/api/conversations/${ID}/messages`,
        body: { body: 'Yes, at 60,000 miles.\nCambelt too.' },
      },
    ]);
    expect(field()).toHaveFocus();
    expect(sessionStorage.getItem(`carmarket.draft.${ID}`)).toBeNull();
  });

  it('keeps the draft when the thread is left and opened again', async () => {
    const first = renderWithApp(<Composer conversationId={ID} />);
    await first.user.type(field(), 'Yes, at 60,000 miles.');
    first.unmount();
    renderWithApp(<Composer conversationId={ID} />);
    expect(field()).toHaveValue('Yes, at 60,000 miles.');
  });

  it('counts down near the limit, and names what to take out past it', () => {
    renderWithApp(<Composer conversationId={ID} />);
    fireEvent.change(field(), { target: { value: 'a'.repeat(MESSAGE_MAX_LENGTH - 150) } });
    expect(screen.getByText('150 characters left')).toBeVisible();
    fireEvent.change(field(), { target: { value: 'a'.repeat(MESSAGE_MAX_LENGTH + 12) } });
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(sendButton()).toHaveAttribute('aria-disabled', 'true');
    expect(sendButton()).toHaveAccessibleDescription(/take out 12\.$/);
  });

  it('says it is offline, and keeps the message to send later', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderWithApp(<Composer conversationId={ID} />);
    fireEvent.change(field(), { target: { value: 'Still there?' } });
    expect(sendButton()).toHaveAttribute('aria-disabled', 'true');
    expect(sendButton()).toHaveAccessibleDescription(
      'You are offline. Your message is kept here; send it when you are back online.',
    );
    fireEvent.submit(field().closest('form')!);
    expect(sent).toHaveLength(0);
  });
});
