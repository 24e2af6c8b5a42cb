import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { RemoveCarDialog } from './remove-car-dialog';

/* The admin's Remove car dialog: a reason is required, for the seller (moved from admin.spec.ts). */

const car = { _id: '00000000-0000-4000-8000-000000000009', name: 'Fake Photo EV', seller: 'Rita' };

afterEach(() => vi.unstubAllGlobals());

function renderDialog() {
  const fetchMock = vi.fn((_url: string, _init?: RequestInit) =>
    Promise.resolve(Response.json({ acknowledged: true })),
  );
  vi.stubGlobal('fetch', fetchMock);
  const onClose = vi.fn();
  const view = renderWithApp(<div />);
  view.rerender(<RemoveCarDialog car={car} queryClient={view.queryClient} onClose={onClose} />);
  return { ...view, fetchMock, onClose };
}

describe('removing a car', () => {
  it('says the seller is mailed the reason, and starts at the reason', async () => {
    renderDialog();
    expect(screen.getByText('Remove Fake Photo EV?')).toBeInTheDocument();
    expect(
      screen.getByText('Rita is mailed the reason you give. This cannot be undone.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Reason, for the seller')).toHaveFocus());
  });

  it('refuses to remove without a reason, beside the field, and sends the one given', async () => {
    const { user, fetchMock, onClose } = renderDialog();
    const reasonBox = screen.getByLabelText('Reason, for the seller');
    await user.click(screen.getByRole('button', { name: 'Remove car' }));
    expect(screen.getByText('Reason is required', { exact: true })).toBeVisible();
    expect(reasonBox).toHaveAttribute('aria-invalid', 'true');
    expect(reasonBox).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(reasonBox, 'Reported stolen.');
    await user.click(screen.getByRole('button', { name: 'Remove car' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(`/api/listings/${car._id}/remove`);
    expect(JSON.parse(init?.body as string)).toEqual({ reason: 'Reported stolen.' });
  });
});
