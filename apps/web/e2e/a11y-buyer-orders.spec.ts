import type { CategorySummary } from '@carmarket/shared';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

import {
  adminSession,
  A11Y_TEST_TIMEOUT,
  CATEGORY,
  state,
  uniqueMarker,
  userIdApi,
} from './a11y-helpers';
import {
  addCarApi,
  bookCarApi,
  fromSite,
  otherSession,
  payApi,
  signUpBuyer,
  signUpBuyerApi,
  signUpSellerApi,
  waitForHydration,
} from './site';

/*
 * Accessibility of a buyer's bookings: booking, paying, My Orders and a receipt (how these files
 * work: a11y-helpers.ts).
 */

async function categoryId(page: Page, name: string): Promise<string> {
  const categories = (await (await page.request.get('/api/category')).json()) as CategorySummary[];
  return categories.find((category) => category.name === name)!._id;
}

/** The buyer signed in through `request` starts paying, and so holds the car for a while. */
async function holdApi(request: APIRequestContext, bookingId: string) {
  const started = await request.post('/api/create-payment-intent', { data: { bookingId } });
  expect(started.ok(), await started.text()).toBe(true);
  const held = await request.post('/api/payments/hold', { data: { bookingId } });
  expect(held.ok(), await held.text()).toBe(true);
}

test.describe('accessibility: a buyer’s bookings, payments and orders', () => {
  test.describe.configure({ timeout: A11Y_TEST_TIMEOUT });

  test('a buyer: a booked car, the booking form’s refusals, paying, My Orders and a receipt', async ({
    page,
    context,
    playwright,
  }) => {
    const marker = uniqueMarker();
    const sellerApi = await otherSession(playwright);
    await signUpSellerApi(sellerApi, `Orla Owner ${marker}`);
    const newCar = async (name: string, model: string) => {
      const id = await addCarApi(sellerApi, `VW ${name} ${marker}`, {
        category: CATEGORY,
        make: 'Volkswagen',
        model,
      });
      return { id, name: `VW ${name} ${marker}` };
    };
    const booked = await newCar('Transporter', 'Transporter');
    const notBooked = await newCar('Kombi', 'Transporter');
    const offline = await newCar('Multivan', 'Multivan');
    const paid = await newCar('California', 'Multivan');
    const toPay = await newCar('Caddy', 'Caddy');
    const held = await newCar('Caddy Maxi', 'Caddy');
    const reserved = await newCar('ID. Buzz', 'ID. Buzz');
    const notYours = await newCar('Caddy Life', 'Caddy');
    await sellerApi.dispose();
    const category = await categoryId(page, CATEGORY);

    await signUpBuyer(page, 'Rhea Receipt');
    const cardOf = (name: string) =>
      page
        .getByTestId('listing-card')
        .filter({ has: page.getByRole('heading', { name, exact: true }) });
    await bookCarApi(page.request, booked.id);
    await state(page, 'a car’s page, once the buyer booked it', async () => {
      await page.goto(`/listing/${booked.id}`);
      await waitForHydration(page);
      await expect(page.getByRole('button', { name: 'Book now' })).toHaveAccessibleDescription(
        'You booked this car. See My Orders',
      );
    });
    // Narrowed to its model: a page of every car takes much longer to check, and its cards
    // are the same.
    await state(page, 'its category page, with its card', async () => {
      await page.goto(`/category/${category}?make=Volkswagen&model=Transporter`);
      await expect(
        cardOf(booked.name).getByRole('button', { name: 'Book now' }),
      ).toHaveAccessibleDescription('You booked this car. See My Orders');
    });
    await state(page, 'a search finding it, and a car not booked', async () => {
      await page.goto(`/cars?q=${marker}`);
      await expect(
        cardOf(booked.name).getByRole('button', { name: 'Book now' }),
      ).toHaveAccessibleDescription('You booked this car. See My Orders');
      await expect(cardOf(notBooked.name).getByRole('button', { name: 'Book now' })).toBeVisible();
    });

    const bookingForm = page.getByRole('dialog', { name: /^Book the / });
    const openBookingForm = async (carId: string) => {
      await page.goto(`/listing/${carId}`);
      await waitForHydration(page);
      await page.getByRole('button', { name: 'Book now' }).click();
      await bookingForm.getByLabel('Phone').fill('+1 503 555 0100');
      await bookingForm.getByLabel('Meeting location').fill('Portland, OR');
    };
    await state(
      page,
      'the booking form, refusing a car booked meanwhile in another tab',
      async () => {
        await openBookingForm(notBooked.id);
        await bookCarApi(page.request, notBooked.id);
        await bookingForm.getByRole('button', { name: 'Book now' }).click();
        await expect(bookingForm.getByRole('alert')).toContainText('You already booked this car.');
      },
    );
    await state(page, 'the booking form, offline', async () => {
      await openBookingForm(offline.id);
      await context.setOffline(true);
      await bookingForm.getByRole('button', { name: 'Book now' }).click();
      await expect(bookingForm.getByRole('alert')).toContainText('You’re offline.');
    });
    await context.setOffline(false);

    const transactionId = await payApi(page.request, await bookCarApi(page.request, paid.id));
    const paidRow = page.getByTestId('order-row').filter({ hasText: paid.name });
    await state(page, 'My Orders, with a paid booking', async () => {
      await page.goto('/dashboard/orders');
      await expect(paidRow.getByTestId('transaction-id')).toHaveText(transactionId);
    });
    await state(page, 'the receipt', async () => {
      await paidRow.getByRole('link', { name: `Receipt for the ${paid.name}` }).click();
      await expect(
        page.getByRole('article', { name: 'Receipt' }).getByTestId('receipt-transaction-id'),
      ).toHaveText(transactionId);
    });

    const pay = page.getByRole('button', { name: /^Pay / });
    await state(page, 'the payment form, empty', async () => {
      await page.goto(`/dashboard/payment/${await bookCarApi(page.request, toPay.id)}`);
      await expect(pay).toHaveAccessibleDescription(
        'To pay, enter the card number, the expiry date and the CVC.',
      );
    });
    await state(page, 'the payment form, with an expiry date that has passed', async () => {
      await page.getByLabel('Card number').fill('4242 4242 4242 4242');
      await page.getByLabel('Expiry (MM/YY)').fill('12/20');
      await page.getByLabel('CVC').fill('123');
      await expect(page.getByText('The expiry date 12/20 has passed.')).toBeVisible();
    });

    // Another buyer pays for cars: one this buyer booked too, then one they did not.
    const rival = await otherSession(playwright);
    await signUpBuyerApi(rival, 'Riley Rival');
    const rivalsFirst = await bookCarApi(rival, held.id);
    const heldBooking = await bookCarApi(page.request, held.id);
    await holdApi(rival, rivalsFirst);
    await state(page, 'the payment page, while another buyer pays', async () => {
      await page.goto(`/dashboard/payment/${heldBooking}`);
      await expect(page.getByRole('alert')).toContainText('Another buyer is paying for this car');
    });
    expect((await rival.post(`/api/booked/${rivalsFirst}/cancel`)).ok()).toBe(true);
    const rivalsSecond = await bookCarApi(rival, reserved.id);
    await holdApi(rival, rivalsSecond);
    await state(page, 'a category page, with a car another buyer is paying for', async () => {
      await page.goto(`/category/${category}?make=Volkswagen&model=ID.%20Buzz`);
      await expect(cardOf(reserved.name).getByText(/^Reserved until \d/)).toBeVisible();
    });
    expect((await rival.post(`/api/booked/${rivalsSecond}/cancel`)).ok()).toBe(true);
    const rivalsThird = await bookCarApi(rival, notYours.id);
    await rival.dispose();
    await state(page, 'another buyer’s payment link', async () => {
      await page.goto(`/dashboard/payment/${rivalsThird}`);
      await expect(
        page.getByRole('region', { name: 'We could not find this booking' }),
      ).toContainText('it may belong to another account');
    });

    // A seller whose account is closed, with a car withdrawn before: both bookings close.
    const closing = await otherSession(playwright);
    const closingSeller = await signUpSellerApi(closing, `Cleo Closing ${marker}`);
    const goneName = `VW Crafter ${marker}`;
    const withdrawnName = `VW Amarok ${marker}`;
    const gone = await addCarApi(closing, goneName, { category: CATEGORY });
    const withdrawn = await addCarApi(closing, withdrawnName, { category: CATEGORY });
    await bookCarApi(page.request, gone);
    await bookCarApi(page.request, withdrawn);
    expect((await closing.post(`/api/listings/${withdrawn}/withdraw`)).ok()).toBe(true);
    await closing.dispose();
    const admin = await adminSession(playwright);
    const closed = await admin.delete(
      `/api/user/remove/${await userIdApi(admin, closingSeller.email)}`,
    );
    expect(closed.ok(), await closed.text()).toBe(true);
    await admin.dispose();
    await state(page, 'My Orders, with bookings closed and why', async () => {
      await page.goto('/dashboard/orders');
      const rows = page.getByTestId('order-row');
      await expect(rows.filter({ hasText: goneName })).toContainText(
        'Closed because the seller’s account was closed',
      );
      await expect(rows.filter({ hasText: withdrawnName })).toContainText(
        'Closed because the seller withdrew it',
      );
    });
  });

  test('a buyer’s paid cars: held, handed over, a problem reported, and the dialogs', async ({
    page,
    playwright,
  }) => {
    const marker = uniqueMarker();
    const sellerApi = await otherSession(playwright);
    await signUpSellerApi(sellerApi, `Hugo Handover ${marker}`);
    const names = ['Crafter', 'Caravelle', 'Touran'].map((model) => `VW ${model} ${marker}`);
    const ids = [];
    for (const name of names) ids.push(await addCarApi(sellerApi, name, { category: CATEGORY }));
    await sellerApi.dispose();
    await signUpBuyer(page, 'Hedda Holder');
    const bookings = [];
    for (const id of ids) {
      const bookingId = await bookCarApi(page.request, id);
      await payApi(page.request, bookingId);
      bookings.push(bookingId);
    }
    const handedOver = await page.request.post(`/api/booked/${bookings[0]}/handover`, {
      headers: fromSite,
    });
    expect(handedOver.ok(), await handedOver.text()).toBe(true);
    const row = (name: string) => page.getByTestId('order-row').filter({ hasText: name });
    await state(page, 'My Orders, a car handed over and one held', async () => {
      await page.goto('/dashboard/orders');
      await expect(row(names[0]!).getByTestId('handover-status')).toHaveText(/^Handed over on /);
      await expect(
        row(names[1]!).getByRole('button', { name: /^Confirm hand-over/ }),
      ).toBeVisible();
      await expect(row(names[1]!).getByTestId('handover-status')).toHaveText(
        /^Confirm hand-over once you have the car/,
      );
    });
    const confirm = page.getByRole('dialog', { name: 'Confirm hand-over?' });
    await state(page, 'Confirm hand-over, asking', async () => {
      await waitForHydration(page);
      await row(names[1]!)
        .getByRole('button', { name: /^Confirm hand-over/ })
        .click();
      await expect(confirm.getByRole('button', { name: 'Not yet' })).toBeFocused();
    });
    await page.keyboard.press('Escape');
    const message = page.getByRole('dialog', {
      name: `Message Hugo Handover ${marker} about the ${names[0]}`,
    });
    await state(page, 'Message the seller, writing', async () => {
      await row(names[0]!)
        .getByRole('button', { name: /^Message the seller/ })
        .click();
      await message.getByLabel('Your message').fill('Where are the spare keys?');
    });
    await page.keyboard.press('Escape');
    const report = page.getByRole('dialog', { name: 'Report a problem' });
    await state(page, 'Report a problem, with a reason too short', async () => {
      await row(names[2]!)
        .getByRole('button', { name: /^Report a problem/ })
        .click();
      await report.getByLabel('What went wrong').fill('Late');
      await report.getByRole('button', { name: 'Report problem' }).click();
      await expect(report.getByLabel('What went wrong')).toHaveAttribute('aria-invalid', 'true');
    });
    await state(page, 'My Orders, a problem reported', async () => {
      await report
        .getByLabel('What went wrong')
        .fill('The car has a different VIN from the papers.');
      await report.getByRole('button', { name: 'Report problem' }).click();
      await expect(row(names[2]!).getByTestId('handover-status')).toHaveText(
        /^You reported a problem/,
      );
    });
  });
});
