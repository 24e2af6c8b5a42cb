import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { ListingGallery } from './listing-gallery';

/*
 * The car page's photos and the full-screen viewer, state by state (moved from
 * photo-viewer.spec.ts): the thumbnails' one tab stop, opening at the photo shown, the focus kept
 * inside, zoom by button, key, wheel and double-click, a zoomed photo moved by the arrow keys no
 * further than its edges, the other photos by key, swipe and tap, the count and what is
 * announced, and Close handing the focus back to the photo seen last.
 */

const NAME = 'Skoda Octavia Estate';
const photos = [1, 2, 3, 4].map((n) => ({
  url: `/uploads/photo-${n}.png`,
  thumbUrl: `/uploads/photo-${n}-thumb.png`,
  width: 480,
  height: 320,
}));

/** The stage the photo is drawn in: 1200 by 700 px (the photos are 3 : 2). */
const STAGE = { width: 1200, height: 700 };
let sizes: PropertyDescriptor[] = [];
beforeEach(() => {
  sizes = (['clientWidth', 'clientHeight'] as const).map((key) =>
    Object.getOwnPropertyDescriptor(HTMLElement.prototype, key)!,
  );
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get: () => STAGE.width,
  });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get: () => STAGE.height,
  });
});
afterEach(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', sizes[0]!);
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', sizes[1]!);
});

function renderGallery() {
  return renderWithApp(<ListingGallery listing={{ name: NAME, images: photos, img: null }} />);
}

const opener = () => screen.getByRole('button', { name: /^View photo \d of 4 full screen$/ });
const pagePhoto = () => screen.getByRole('img', { name: /^Photo \d of 4 of the / });
const thumbnail = (n: number) => screen.getByRole('button', { name: `Show photo ${n} of 4` });

/** The thumbnails are one tab stop: only the shown photo's, `n`, is in the tab order. */
function expectOneTabStop(n: number) {
  const all = within(screen.getByRole('group', { name: 'Choose a photo' })).getAllByRole('button');
  expect(all.map((button) => button.tabIndex)).toEqual(
    [1, 2, 3, 4].map((each) => (each === n ? 0 : -1)),
  );
  expect(thumbnail(n)).toHaveAttribute('aria-pressed', 'true');
}

async function openViewer() {
  const view = renderGallery();
  await view.user.click(opener());
  const dialog = await screen.findByRole('dialog', { name: `Photos of the ${NAME}` });
  const stage = dialog.querySelector<HTMLImageElement>('img[data-scale]')!;
  return {
    ...view,
    dialog,
    counter: within(dialog).getByTestId('photo-counter'),
    status: within(dialog).getByRole('status'),
    stage: () => dialog.querySelector<HTMLImageElement>('img[data-scale]')!,
    surface: stage.parentElement!,
    button: (name: string) => within(dialog).getByRole('button', { name }),
  };
}

/** The photo's place and zoom, as its transform draws it. */
function viewOf(image: HTMLElement) {
  const match = /translate\((-?[\d.]+)px, (-?[\d.]+)px\) scale\(([\d.]+)\)/.exec(
    image.style.transform,
  );
  if (!match) throw new Error(`no transform: ${image.style.transform}`);
  return { x: Number(match[1]), y: Number(match[2]), scale: Number(match[3]) };
}

/** A pointer gesture on `target`, each event stamped with its own time (ms). */
function pointer(
  target: Element,
  type: 'pointerdown' | 'pointermove' | 'pointerup',
  {
    id = 1,
    x,
    y = 300,
    at,
    kind = 'touch',
  }: { id?: number; x: number; y?: number; at: number; kind?: string },
) {
  const event = new PointerEvent(type, {
    bubbles: true,
    cancelable: true,
    pointerId: id,
    pointerType: kind,
    clientX: x,
    clientY: y,
    isPrimary: id === 1,
  });
  Object.defineProperty(event, 'timeStamp', { value: at });
  act(() => void target.dispatchEvent(event));
}

describe('the car page’s photos', () => {
  it('the thumbnails are one tab stop; arrow keys, Home and End move between them and show their photo', async () => {
    const { user } = renderGallery();
    expectOneTabStop(1);
    await user.click(thumbnail(3));
    expectOneTabStop(3);
    expect(pagePhoto()).toHaveAccessibleName(`Photo 3 of 4 of the ${NAME}`);
    expect(opener()).toHaveAccessibleName('View photo 3 of 4 full screen');
    await user.keyboard('{ArrowRight}');
    expect(thumbnail(4)).toHaveFocus();
    expect(pagePhoto()).toHaveAttribute('src', photos[3]!.url);
    expectOneTabStop(4);
    await user.keyboard('{Home}');
    expect(thumbnail(1)).toHaveFocus();
    expectOneTabStop(1);
    await user.keyboard('{ArrowLeft}');
    expect(thumbnail(4)).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(thumbnail(3)).toHaveFocus();
    await user.keyboard('{End}');
    expect(thumbnail(4)).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(thumbnail(1)).toHaveFocus();
    expectOneTabStop(1);
    // Tab leaves the thumbnails at once; Shift+Tab comes back to the shown one, then the photo.
    await user.tab();
    expect(document.activeElement?.closest('[role="group"]')).toBeNull();
    await user.tab({ shift: true });
    expect(thumbnail(1)).toHaveFocus();
    await user.tab({ shift: true });
    expect(opener()).toHaveFocus();
  });

  it('a swipe on the large photo shows the next or the previous one, counts "2 of 4", and opens nothing', async () => {
    renderGallery();
    const surface = opener().parentElement!;
    pointer(surface, 'pointerdown', { x: 600, at: 1000 });
    pointer(surface, 'pointerup', { x: 400, at: 1100 });
    expect(pagePhoto()).toHaveAccessibleName(`Photo 2 of 4 of the ${NAME}`);
    expect(surface).toHaveTextContent('2 of 4');
    expectOneTabStop(2);
    pointer(surface, 'pointerdown', { x: 400, at: 2000 });
    pointer(surface, 'pointerup', { x: 600, at: 2100 });
    expect(pagePhoto()).toHaveAccessibleName(`Photo 1 of 4 of the ${NAME}`);
    // Too short, or more up and down than sideways: no change.
    pointer(surface, 'pointerdown', { x: 600, y: 100, at: 3000 });
    pointer(surface, 'pointerup', { x: 560, y: 100, at: 3100 });
    pointer(surface, 'pointerdown', { x: 600, y: 100, at: 4000 });
    pointer(surface, 'pointerup', { x: 520, y: 300, at: 4100 });
    expect(pagePhoto()).toHaveAccessibleName(`Photo 1 of 4 of the ${NAME}`);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the full-screen photo viewer', () => {
  it('opens at the photo shown, modal, with the focus on Close, and keeps the focus inside', async () => {
    const { user } = renderGallery();
    await user.click(thumbnail(2));
    await user.click(opener());
    const dialog = await screen.findByRole('dialog', { name: `Photos of the ${NAME}` });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(within(dialog).getByTestId('photo-counter')).toHaveTextContent('2 of 4');
    expect(
      within(dialog).getByRole('img', { name: `Photo 2 of 4 of the ${NAME}` }),
    ).toHaveAttribute('src', photos[1]!.url);
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus(),
    );
    expect(dialog).toHaveAccessibleDescription(
      /arrow keys move it; Shift with Left or Right, or Page Up and Page Down, show the other photos/,
    );

    // Nine buttons: Zoom out, Zoom in, Close, Previous, Next and four thumbnails. Tab goes round.
    const buttons = within(dialog).getAllByRole('button');
    expect(buttons).toHaveLength(9);
    buttons.at(-1)!.focus();
    await user.tab();
    expect(buttons[0]).toHaveFocus();
    await user.tab({ shift: true });
    expect(buttons.at(-1)).toHaveFocus();
  });

  it('zooms with the buttons, + - and 0, the wheel and a double-click, and says so', async () => {
    const { user, stage, status, button, surface } = await openViewer();
    await user.click(button('Zoom in'));
    expect(viewOf(stage()).scale).toBeCloseTo(1.5);
    await waitFor(() => expect(status).toHaveTextContent('Zoomed to 150%'));
    await user.keyboard('-');
    expect(viewOf(stage()).scale).toBe(1);
    await waitFor(() => expect(status).toHaveTextContent('Zoom reset'));
    expect(button('Zoom out')).toHaveAttribute('aria-disabled', 'true');
    await user.keyboard('+');
    expect(viewOf(stage()).scale).toBeCloseTo(1.5);
    await user.keyboard('0');
    expect(viewOf(stage()).scale).toBe(1);
    const wheel = new WheelEvent('wheel', { deltaY: -300, bubbles: true, cancelable: true });
    Object.defineProperties(wheel, { clientX: { value: 600 }, clientY: { value: 350 } });
    act(() => void surface.dispatchEvent(wheel));
    expect(viewOf(stage()).scale).toBeGreaterThan(1.2);
    await user.keyboard('0');
    await user.dblClick(stage());
    expect(viewOf(stage()).scale).toBeCloseTo(2.5);
    await waitFor(() => expect(status).toHaveTextContent('Zoomed to 250%'));
    await user.dblClick(stage());
    expect(viewOf(stage()).scale).toBe(1);
    await waitFor(() => expect(status).toHaveTextContent('Zoom reset'));
    // No further in than 400%.
    for (let press = 0; press < 5; press += 1) await user.click(button('Zoom in'));
    expect(viewOf(stage()).scale).toBe(4);
    expect(button('Zoom in')).toHaveAttribute('aria-disabled', 'true');
  });

  it('moves a zoomed photo with the arrow keys, no further than its edges, on the same photo', async () => {
    const { user, stage, counter, status } = await openViewer();
    await user.keyboard('++');
    expect(viewOf(stage()).scale).toBeCloseTo(2.25);
    await waitFor(() => expect(status).toHaveTextContent('Zoomed to 225%'));
    // Drawn 1050 by 700 in a 1200 by 700 stage: at 225% it can move 581.25 px sideways and
    // 437.5 px up and down.
    const edges = { x: (1050 * 2.25 - 1200) / 2, y: (700 * 2.25 - 700) / 2 };
    await user.keyboard('{ArrowRight}');
    expect(viewOf(stage()).x).toBeLessThan(-10);
    expect(counter).toHaveTextContent('1 of 4');
    await user.keyboard('{ArrowLeft}');
    expect(viewOf(stage()).x).toBeCloseTo(0);
    for (let press = 0; press < 12; press += 1) await user.keyboard('{ArrowLeft}');
    expect(viewOf(stage()).x).toBeCloseTo(edges.x, 1);
    for (let press = 0; press < 12; press += 1) await user.keyboard('{ArrowDown}');
    expect(viewOf(stage()).y).toBeCloseTo(-edges.y, 1);
    await user.keyboard('{ArrowUp}');
    expect(viewOf(stage()).y).toBeGreaterThan(-edges.y + 10);
    expect(counter).toHaveTextContent('1 of 4');
    expect(status).toHaveTextContent('Zoomed to 225%');
  });

  it('Shift with an arrow key, Page Up and Down, and the arrow keys on a whole photo show the others', async () => {
    const { user, stage, counter, status } = await openViewer();
    await user.keyboard('+');
    await user.keyboard('{Shift>}{ArrowRight}{/Shift}');
    expect(counter).toHaveTextContent('2 of 4');
    expect(status).toHaveTextContent('Photo 2 of 4');
    expect(viewOf(stage()).scale).toBe(1);
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(counter).toHaveTextContent('1 of 4');
    await user.keyboard('+');
    await waitFor(() => expect(status).toHaveTextContent('Zoomed to 150%'));
    await user.keyboard('{PageDown}');
    expect(counter).toHaveTextContent('2 of 4');
    expect(status).toHaveTextContent('Photo 2 of 4');
    expect(viewOf(stage()).scale).toBe(1);
    await user.keyboard('{PageUp}{PageUp}');
    // Round from the first to the last.
    expect(counter).toHaveTextContent('4 of 4');
    expect(status).toHaveTextContent('Photo 4 of 4');
    await user.keyboard('{ArrowRight}');
    expect(counter).toHaveTextContent('1 of 4');
    await user.keyboard('{ArrowLeft}');
    expect(counter).toHaveTextContent('4 of 4');
    expect(stage()).toHaveAccessibleName(`Photo 4 of 4 of the ${NAME}`);
  });

  it('by touch: a swipe moves on, a double-tap zooms in and out, taps far apart in time do not, a pinch zooms', async () => {
    const { stage, surface, counter, status } = await openViewer();
    pointer(surface, 'pointerdown', { x: 700, at: 1000 });
    pointer(surface, 'pointermove', { x: 550, at: 1050 });
    pointer(surface, 'pointerup', { x: 450, at: 1100 });
    expect(counter).toHaveTextContent('2 of 4');
    expect(status).toHaveTextContent('Photo 2 of 4');

    const tap = (at: number) => {
      pointer(surface, 'pointerdown', { x: 600, at });
      pointer(surface, 'pointerup', { x: 600, at: at + 60 });
    };
    tap(2000);
    tap(2180);
    expect(viewOf(stage()).scale).toBeCloseTo(2.5);
    await waitFor(() => expect(status).toHaveTextContent('Zoomed to 250%'));
    tap(3000);
    tap(3180);
    expect(viewOf(stage()).scale).toBe(1);
    // The second finger comes 600 ms after the first lifted: two taps, no zoom.
    tap(4000);
    tap(4660);
    expect(viewOf(stage()).scale).toBe(1);

    // Two fingers, 80 px apart, move to 200 px apart.
    pointer(surface, 'pointerdown', { id: 1, x: 560, at: 6000 });
    pointer(surface, 'pointerdown', { id: 2, x: 640, at: 6010 });
    pointer(surface, 'pointermove', { id: 1, x: 500, at: 6050 });
    pointer(surface, 'pointermove', { id: 2, x: 700, at: 6060 });
    pointer(surface, 'pointerup', { id: 1, x: 500, at: 6200 });
    pointer(surface, 'pointerup', { id: 2, x: 700, at: 6210 });
    expect(viewOf(stage()).scale).toBeGreaterThan(2);
    await waitFor(() => expect(status).toHaveTextContent(/^Zoomed to \d+%$/));
    expect(counter).toHaveTextContent('2 of 4');
  });

  it('Close hands the focus back to the page’s photo, now the one seen last', async () => {
    const { user, button, counter } = await openViewer();
    await user.click(button('Next photo'));
    await user.click(button('Next photo'));
    expect(counter).toHaveTextContent('3 of 4');
    await user.click(button('Close'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(opener()).toHaveFocus();
    expect(opener()).toHaveAccessibleName('View photo 3 of 4 full screen');
    expect(pagePhoto()).toHaveAttribute('src', photos[2]!.url);
    expectOneTabStop(3);
  });
});
