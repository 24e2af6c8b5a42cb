import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { savedPhotos, usePhotoUploads } from '../hooks/use-photo-uploads';
import { PhotoField } from './photo-field';

/*
 * A car's saved photos reordered from the keyboard in the edit form (moved from
 * seller-car-page.spec.ts): each move is said in the status, and the focus goes on with the photo
 * moved, on the button that moves it again.
 */

const saved = savedPhotos(
  ['red', 'green', 'blue'].map((colour) => ({
    url: `/uploads/${colour}.png`,
    thumbUrl: `/uploads/${colour}-thumb.png`,
  })),
);

function Field() {
  const uploads = usePhotoUploads(saved);
  return (
    <>
      <PhotoField uploads={uploads} />
      <output data-testid="order">{uploads.photos.map((photo) => photo.url).join(' ')}</output>
    </>
  );
}

const button = (name: string) => screen.getByRole('button', { name });
const order = () => screen.getByTestId('order').textContent;

describe('the photos of a car being edited, from the keyboard', () => {
  it('makes the third photo the cover, then moves the old cover to the end, the focus on with each', async () => {
    const { user } = renderWithApp(<Field />);
    const status = within(screen.getByRole('group', { name: 'Photos' })).getByRole('status');
    expect(screen.getAllByTestId('photo-item')).toHaveLength(3);

    button('Make photo 3 the cover').focus();
    await user.keyboard('{Enter}');
    expect(status).toHaveTextContent('photo 3 is now the cover photo.');
    expect(order()).toBe('/uploads/blue.png /uploads/red.png /uploads/green.png');
    // Make cover goes with the cover: the focus is on the photo's Move later.
    expect(button('Move photo 1 (cover) later')).toHaveFocus();

    // The old cover, now second, moves to the end, and its button keeps the focus.
    button('Move photo 2 later').focus();
    await user.keyboard(' ');
    expect(status).toHaveTextContent('photo 1 moved to position 3.');
    expect(order()).toBe('/uploads/blue.png /uploads/green.png /uploads/red.png');
    const last = button('Move photo 3 later');
    expect(last).toHaveFocus();
    expect(last).toHaveAttribute('aria-disabled', 'true');
    // At the end, Move later does nothing.
    await user.keyboard('{Enter}');
    expect(order()).toBe('/uploads/blue.png /uploads/green.png /uploads/red.png');

    // And back one: Move earlier keeps the focus too.
    await user.click(button('Move photo 3 earlier'));
    expect(status).toHaveTextContent('photo 1 moved to position 2.');
    expect(button('Move photo 2 earlier')).toHaveFocus();
  });
});
