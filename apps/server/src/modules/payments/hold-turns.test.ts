import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carHold, listing } from '../../db/schema.ts';
import { errorOf, register, type NewAccount, type TestClient } from '../../test/client.ts';
import { newCar, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { hold as sendCardForm } from './payments.test-helpers.ts';

/**
 * A car's hold is not passed between accounts (decision 047): after a hold ends without a sale,
 * the car goes first to a buyer new to it, so a third buyer gets it when the hold they were
 * refused on ends. On both databases: the rule reads the car's holds under the hold locks.
 */
describe('a hold is not passed between accounts', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Behind one proxy, so that each buyer asks from an address of the test's choosing.
    app = await startTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => app.close());

  let lastAddress = 0;
  const newAddress = () => `203.0.113.${(lastAddress += 1)}`;

  /** Books `carId` and opens the payment page; answers the booking. */
  async function bookAndStart(buyer: TestClient, carId: string): Promise<string> {
    const booked = await buyer.post('/api/category', validBooking(carId));
    expect(booked.status).toBe(200);
    const { insertedId } = (await booked.json()) as { insertedId: string };
    const started = await buyer.post('/api/create-payment-intent', { bookingId: insertedId });
    expect(started.status, await started.clone().text()).toBe(200);
    return insertedId;
  }

  /** The card form sent from `address`: status, and the sentence of a refusal. */
  async function hold(buyer: TestClient, bookingId: string, address: string) {
    const { response } = await sendCardForm(buyer, bookingId, address);
    return {
      status: response.status,
      message: response.status === 200 ? '' : (await errorOf(response)).message,
    };
  }

  /** The car's hold lapses now, unpaid (the sweeper need not have run). */
  async function lapse(carId: string) {
    const lapsed = new Date(Date.now() - 1000);
    const [car] = await app.database.db.select().from(listing).where(eq(listing.id, carId));
    await app.database.db
      .update(listing)
      .set({ holdExpiresAt: lapsed })
      .where(eq(listing.id, carId));
    await app.database.db
      .update(carHold)
      .set({ expiresAt: lapsed })
      .where(eq(carHold.bookingId, car!.holdBookingId!));
  }

  it('another account on the same network, or in the same browser, waits; the third buyer gets the car as the hold ends', async () => {
    const car = await newCar(app);
    const network = newAddress();
    const [first, sameNetwork, sameBrowser, third] = [
      await register(app),
      await register(app),
      await register(app),
      await register(app),
    ];
    const thirdAddress = newAddress();
    // Each books while the car is free (a reserved car cannot be booked).
    const firstBooking = await bookAndStart(first, car.id);
    const networkBooking = await bookAndStart(sameNetwork, car.id);
    const browserBooking = await bookAndStart(sameBrowser, car.id);
    const thirdBooking = await bookAndStart(third, car.id);

    expect((await hold(first, firstBooking, network)).status).toBe(200);
    expect((await hold(third, thirdBooking, thirdAddress)).status).toBe(409);
    await lapse(car.id);

    // A second account on the first one's network is refused the turn.
    const linked = {
      status: 429,
      message: `The ${car.name} was held from your network or this browser a short while ago, so other buyers have a turn at it first. You can hold it in 15 minutes.`,
    };
    expect(await hold(sameNetwork, networkBooking, network)).toEqual(linked);
    // So is a second account signed in in the first one's browser, from another address.
    await signInAs(first, sameBrowser.account);
    expect(await hold(first, browserBooking, newAddress())).toEqual(linked);
    // The first account itself waits too.
    await signInAs(first, first.account);
    expect((await hold(first, firstBooking, network)).status).toBe(429);

    expect((await hold(third, thirdBooking, thirdAddress)).status).toBe(200);
  });

  it('two accounts that look like two people get a turn each, then the car goes to the third buyer', async () => {
    const car = await newCar(app);
    const [one, two, third] = [await register(app), await register(app), await register(app)];
    const [oneAddress, twoAddress, thirdAddress] = [newAddress(), newAddress(), newAddress()];
    const oneBooking = await bookAndStart(one, car.id);
    const twoBooking = await bookAndStart(two, car.id);
    const thirdBooking = await bookAndStart(third, car.id);

    expect((await hold(one, oneBooking, oneAddress)).status).toBe(200);
    await lapse(car.id);
    // From another network and browser, nothing ties the second account to the first.
    expect((await hold(two, twoBooking, twoAddress)).status).toBe(200);
    expect((await hold(third, thirdBooking, thirdAddress)).status).toBe(409);
    await lapse(car.id);

    // Neither may pass it back: both held it in the last day (the first's hold told as hours ago).
    await app.database.db
      .update(carHold)
      .set({
        heldAt: sql`${carHold.heldAt} - interval '2 hours'`,
        expiresAt: sql`${carHold.expiresAt} - interval '2 hours'`,
      })
      .where(eq(carHold.bookingId, oneBooking));
    expect(await hold(one, oneBooking, oneAddress)).toEqual({
      status: 429,
      message: `You held the ${car.name} earlier today and another buyer has just let it go, so buyers new to it have a turn first. You can hold it again in 15 minutes.`,
    });
    expect(await hold(two, twoBooking, twoAddress)).toEqual({
      status: 429,
      message: `You let the ${car.name} go a short while ago, so other buyers have a turn at it first. You can hold it again in 15 minutes.`,
    });
    expect((await hold(third, thirdBooking, thirdAddress)).status).toBe(200);
  });

  /** Signs `client` in as `account`, in place of whoever it was. */
  async function signInAs(client: TestClient, account: NewAccount) {
    await client.post('/api/auth/sign-out');
    const response = await client.post('/api/auth/sign-in/email', {
      email: account.email,
      password: account.password,
    });
    expect(response.status).toBe(200);
  }
});
