import type { ListingCard } from '@carmarket/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { useSetCarSaved } from './set-car-saved';

const car = { _id: 'c1', reprice: 1_000_000 } as ListingCard;

function Heart() {
  const save = useSetCarSaved();
  return (
    <>
      <button type="button" onClick={() => save.mutate({ car, saved: true })}>
        Save
      </button>
      <button type="button" onClick={() => save.mutate({ car, saved: false })}>
        Remove
      </button>
    </>
  );
}

describe('saving and forgetting a car', () => {
  it('sends quick clicks one after another, so the server ends where the screen did', async () => {
    const sent: string[] = [];
    let answerFirst = () => {};
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      sent.push(`${init?.method ?? 'GET'} ${url}`);
      const answer = Response.json({ listingId: 'c1', saved: init?.method === 'PUT' });
      if (sent.length > 1) return Promise.resolve(answer);
      return new Promise<Response>((resolve) => {
        answerFirst = () => resolve(answer);
      });
    });
    const { user } = renderWithApp(<Heart />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    // The save is still on its way: the removal waits for it.
    await vi.waitFor(() => expect(sent).toEqual(['PUT /api/saved-cars/c1']));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent).toEqual(['PUT /api/saved-cars/c1']);
    answerFirst();
    await vi.waitFor(() =>
      expect(sent.slice(0, 2)).toEqual(['PUT /api/saved-cars/c1', 'DELETE /api/saved-cars/c1']),
    );
  });
});
