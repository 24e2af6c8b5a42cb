import { expect, test, type Locator, type Page } from '@playwright/test';

import {
  addCarApi,
  asNewSeller,
  expectNoAxeViolationsWideAndNarrow,
  fromSite,
  signUpBuyerApi,
  solidPng,
  uniqueMarker,
  waitForHydration,
} from './site';

/*
 * The car page's photos (issue 32): a swipe on the large photo shows the next one; a click or tap
 * opens them full screen, where they zoom (double-click or double-tap, pinch), move on with a
 * swipe or the arrow keys, and Escape or Close hands the focus back to the photo. At 1280 px with
 * a mouse and at 390 px on a touch screen, with the browser's own pointer and touch input. Each
 * key, button and count of the viewer and the thumbnails' tab stop: photo-viewer.test.tsx.
 */

const COLOURS: [number, number, number][] = [
  [200, 40, 40],
  [40, 160, 60],
  [40, 60, 200],
  [230, 180, 30],
];

/** A car of four photos of different colours, put on sale by a new seller; its id and name. */
async function carWithFourPhotos(playwright: Parameters<typeof asNewSeller>[0]) {
  return asNewSeller(playwright, async (seller) => {
    const urls: string[] = [];
    for (const colour of COLOURS) {
      const upload = await seller.post('/api/uploads', {
        headers: fromSite,
        multipart: {
          image: { name: 'car.png', mimeType: 'image/png', buffer: solidPng(480, 320, colour) },
        },
      });
      expect(upload.ok(), await upload.text()).toBe(true);
      urls.push(((await upload.json()) as { data: { url: string } }).data.url);
    }
    const name = `Skoda Octavia Estate ${uniqueMarker()}`;
    const id = await addCarApi(seller, name, { images: urls });
    return { id, name, urls };
  });
}

/** Where the photo is moved to (translate, in px) and how much it is enlarged. */
const viewOf = (image: Locator) =>
  image.evaluate((element) => {
    const transform = getComputedStyle(element).transform;
    const matrix = new DOMMatrix(transform === 'none' ? undefined : transform);
    return { x: matrix.e, y: matrix.f, scale: matrix.a };
  });

/**
 * How far a photo zoomed to `scale` can move each way before its edges show: it is drawn
 * contained in the stage at 3 : 2 (the cars' photos are 480 by 320).
 */
const edgesOf = (image: Locator, scale: number) =>
  image.evaluate((element, zoom) => {
    const width = Math.min(element.clientWidth, element.clientHeight * 1.5);
    return {
      x: Math.max(0, (width * zoom - element.clientWidth) / 2),
      y: Math.max(0, ((width / 1.5) * zoom - element.clientHeight) / 2),
    };
  }, scale);

/** How much the photo is drawn enlarged (1: the whole photo). */
const scaleOf = (image: Locator) =>
  image.evaluate((element) => {
    const transform = getComputedStyle(element).transform;
    return transform === 'none' ? 1 : new DOMMatrix(transform).a;
  });

async function centreOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on the screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A mouse drag sideways across `target`, from its centre, `dx` pixels. */
async function dragSideways(page: Page, target: Locator, dx: number) {
  const { x, y } = await centreOf(target);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let step = 1; step <= 6; step += 1) await page.mouse.move(x + (dx * step) / 6, y);
  await page.mouse.up();
}

type TouchPoint = { x: number; y: number; id: number };
type TouchStep = {
  type: 'touchStart' | 'touchMove' | 'touchEnd';
  touchPoints: TouchPoint[];
  /** When the event happened, in milliseconds from the sequence's start. */
  at: number;
};

/** The last timestamp handed out (ms since the epoch): each sequence starts after it. */
let touchClock = 0;

/**
 * Touches on a touch screen (Chromium's own touch input), each event stamped with the time it
 * happened: the page reads gestures from those stamps, so how long the machine takes to pass the
 * events on changes nothing. The stamps lie just behind the clock, and after the last sequence's.
 */
async function touchSequence(page: Page, steps: TouchStep[]) {
  const span = Math.max(...steps.map((step) => step.at));
  const start = Math.max(touchClock + 1, Date.now() - span - 20);
  touchClock = start + span;
  const cdp = await page.context().newCDPSession(page);
  for (const { at, ...event } of steps) {
    await cdp.send('Input.dispatchTouchEvent', { ...event, timestamp: (start + at) / 1000 });
  }
  await cdp.detach();
}

/** Fingers on a touch screen, each moved from its start by `dx`. */
async function touchDrag(page: Page, starts: { x: number; y: number }[], dxs: number[]) {
  const at = (fraction: number) =>
    starts.map((start, finger) => ({
      x: start.x + dxs[finger]! * fraction,
      y: start.y,
      id: finger,
    }));
  const steps: TouchStep[] = [{ type: 'touchStart', touchPoints: at(0), at: 0 }];
  for (let step = 1; step <= 6; step += 1) {
    steps.push({ type: 'touchMove', touchPoints: at(step / 6), at: step * 16 });
  }
  // The fingers rest 200 ms before they lift, as a person's do: a lift at speed flings, and the
  // browser spends the next tap on stopping the fling rather than on a click.
  for (let rest = 1; rest <= 4; rest += 1) {
    const still = at(1).map((point) => ({ ...point, x: point.x + (rest % 2) * 0.5 }));
    steps.push({ type: 'touchMove', touchPoints: still, at: 96 + rest * 50 });
  }
  steps.push({ type: 'touchEnd', touchPoints: [], at: 316 });
  await touchSequence(page, steps);
}

/** Two taps of one finger at `point`, the second touching `gap` ms after the first lifted. */
async function doubleTap(page: Page, point: { x: number; y: number }, gap = 120) {
  const finger = [{ ...point, id: 0 }];
  await touchSequence(page, [
    { type: 'touchStart', touchPoints: finger, at: 0 },
    { type: 'touchEnd', touchPoints: [], at: 60 },
    { type: 'touchStart', touchPoints: finger, at: 60 + gap },
    { type: 'touchEnd', touchPoints: [], at: 120 + gap },
  ]);
}

function viewerOf(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name: `Photos of the ${name}` });
  return {
    dialog,
    counter: dialog.getByTestId('photo-counter'),
    photo: (n: number) => dialog.getByRole('img', { name: `Photo ${n} of 4 of the ${name}` }),
    stage: dialog.locator('img[data-scale]'),
    status: dialog.getByRole('status'),
  };
}

const pagePhoto = (page: Page, name: string, n: number) =>
  page.getByRole('img', { name: `Photo ${n} of 4 of the ${name}` });
const opener = (page: Page) =>
  page.getByRole('button', { name: /^View photo \d of 4 full screen$/ });

test.describe('the full-screen photo viewer', () => {
  test('with a mouse and keys at 1280 px: swipe, open, zoom, move on, close back to the photo', async ({
    page,
    playwright,
  }) => {
    const car = await carWithFourPhotos(playwright);
    await signUpBuyerApi(page.request);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/listing/${car.id}`);
    await waitForHydration(page);
    const viewer = viewerOf(page, car.name);

    // A swipe on the page's large photo shows the next one, and opens nothing.
    await expect(pagePhoto(page, car.name, 1)).toBeVisible();
    await dragSideways(page, opener(page), -200);
    await expect(pagePhoto(page, car.name, 2)).toBeVisible();
    await expect(viewer.dialog).toHaveCount(0);

    // A click opens the viewer at that photo, full size, the focus on Close.
    await opener(page).click();
    await expect(viewer.counter).toHaveText('2 of 4');
    await expect(viewer.photo(2)).toHaveAttribute('src', car.urls[1]!);
    await expect(viewer.dialog.getByRole('button', { name: 'Close' })).toBeFocused();

    // A double-click zooms in; the arrow keys then move the photo on the page's real stage.
    await viewer.stage.dblclick();
    await expect.poll(() => scaleOf(viewer.stage)).toBeCloseTo(2.5);
    await expect(viewer.status).toHaveText('Zoomed to 250%');
    expect(
      (await edgesOf(viewer.stage, 2.5)).x,
      'a zoomed photo wider than the stage',
    ).toBeGreaterThan(100);
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await viewOf(viewer.stage)).x).toBeLessThan(-10);
    await expect(viewer.counter).toHaveText('2 of 4');

    // Shift with an arrow key moves on, and so does a swipe; the counter and the announcement follow.
    await page.keyboard.press('Shift+ArrowRight');
    await expect(viewer.counter).toHaveText('3 of 4');
    await expect.poll(() => scaleOf(viewer.stage)).toBe(1);
    await dragSideways(page, viewer.stage, -250);
    await expect(viewer.counter).toHaveText('4 of 4');
    await expect(viewer.status).toHaveText('Photo 4 of 4');
    await expect(viewer.photo(4)).toBeVisible();

    await expectNoAxeViolationsWideAndNarrow(page);

    // Escape closes it; the focus is back on the photo, which is now the one seen last.
    await page.keyboard.press('Escape');
    await expect(viewer.dialog).toHaveCount(0);
    await expect(opener(page)).toBeFocused();
    await expect(opener(page)).toHaveAccessibleName('View photo 4 of 4 full screen');
    await expect(pagePhoto(page, car.name, 4)).toBeVisible();

    // From the keyboard alone: Enter opens it, Close closes it.
    await page.keyboard.press('Enter');
    await expect(viewer.counter).toHaveText('4 of 4');
    await page.keyboard.press('Enter');
    await expect(viewer.dialog).toHaveCount(0);
    await expect(opener(page)).toBeFocused();
  });

  test.describe('on a phone', () => {
    test.use({ hasTouch: true, viewport: { width: 390, height: 844 } });

    test('at 390 px by touch: swipe the photo, tap it open, double-tap and pinch to zoom, swipe on, close', async ({
      page,
      playwright,
    }) => {
      const car = await carWithFourPhotos(playwright);
      await signUpBuyerApi(page.request);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/listing/${car.id}`);
      await waitForHydration(page);
      const viewer = viewerOf(page, car.name);

      // A finger's swipe on the page's photo shows the next.
      await expect(pagePhoto(page, car.name, 1)).toBeVisible();
      const photo = await centreOf(opener(page));
      await touchDrag(page, [photo], [-150]);
      await expect(pagePhoto(page, car.name, 2)).toBeVisible();
      await expect(viewer.dialog).toHaveCount(0);

      await opener(page).tap();
      await expect(viewer.counter).toHaveText('2 of 4');
      const box = await viewer.stage.boundingBox();
      expect(box?.width, 'the photo spans the phone').toBeGreaterThan(380);

      // A double-tap zooms in and out again; so does a pinch.
      const centre = await centreOf(viewer.stage);
      await doubleTap(page, centre);
      await expect.poll(() => scaleOf(viewer.stage)).toBeCloseTo(2.5);
      await expect(viewer.status).toHaveText('Zoomed to 250%');
      await doubleTap(page, centre);
      await expect.poll(() => scaleOf(viewer.stage)).toBe(1);
      await touchDrag(
        page,
        [
          { x: centre.x - 40, y: centre.y },
          { x: centre.x + 40, y: centre.y },
        ],
        [-60, 60],
      );
      await expect.poll(() => scaleOf(viewer.stage)).toBeGreaterThan(2);
      await expect(viewer.status).toHaveText(/^Zoomed to \d+%$/);
      await doubleTap(page, centre);
      await expect.poll(() => scaleOf(viewer.stage)).toBe(1);

      // A swipe moves on.
      await touchDrag(page, [centre], [-200]);
      await expect(viewer.counter).toHaveText('3 of 4');
      await expect(viewer.status).toHaveText('Photo 3 of 4');
      await expect(viewer.photo(3)).toBeVisible();

      // Close hands the focus back to the photo, now the third.
      await viewer.dialog.getByRole('button', { name: 'Close' }).tap();
      await expect(viewer.dialog).toHaveCount(0);
      await expect(opener(page)).toBeFocused();
      await expect(pagePhoto(page, car.name, 3)).toBeVisible();
    });
  });
});
