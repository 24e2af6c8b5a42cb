import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test/client.ts';
import { errorOf, register, signInAs } from '../../test/client.ts';
import { newCar, validBooking } from '../../test/fixtures.ts';
import { linkIn, waitForMail } from '../../test/mail.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { uploadPhoto } from '../../test/uploads.ts';

const REASON =
  'Confirm your email address first: open the link we mailed you, or send it again from My account.';

/** Opens the confirmation link every sign-up mails, in the person's own browser. */
async function confirmAddress(app: TestApp, person: TestClient & { account: { email: string } }) {
  const mail = await waitForMail(app, person.account.email, /Confirm your CarMarket email/);
  const link = linkIn(mail);
  expect((await person.get(link.pathname + link.search)).status).toBe(302);
}

const listCar = async (seller: TestClient) =>
  seller.post('/api/product?name=Electric%20car', {
    name: 'Confirmed EV',
    reprice: 12_000_00,
    orprice: 19_000_00,
    location: 'Boise, ID',
    year: 2019,
    condition: 'Fair',
    describe: 'Listed once the address was confirmed.',
    images: [await uploadPhoto(seller)],
  });

describe('REQUIRE_VERIFIED_EMAIL on', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { REQUIRE_VERIFIED_EMAIL: 'true' } });
  });
  afterAll(() => app.close());

  it('says so in the sign-in options, for the pages to explain their buttons', async () => {
    expect(await (await app.request('/api/sign-in-options')).json()).toMatchObject({
      requireVerifiedEmail: true,
    });
  });

  it('stops an unconfirmed buyer from booking, with the reason, until they confirm', async () => {
    const buyer = await register(app);
    const car = await newCar(app);
    const refused = await buyer.post('/api/category', validBooking(car.id));
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({ code: 'forbidden', message: REASON });

    await confirmAddress(app, buyer);
    expect((await buyer.post('/api/category', validBooking(car.id))).status).toBe(200);
  });

  it('stops an unconfirmed seller from listing, until they confirm', async () => {
    const seller = await register(app, { role: 'Seller' });
    const refused = await listCar(seller);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe(REASON);
    await confirmAddress(app, seller);
    expect((await listCar(seller)).status).toBe(200);
  });

  it('lets the demo accounts, whose addresses are confirmed, book and list', async () => {
    const buyer = await signInAs(app, 'buyer@demo.local');
    expect((await listCar(await signInAs(app, 'seller@demo.local'))).status).toBe(200);
    expect((await buyer.post('/api/category', validBooking((await newCar(app)).id))).status).toBe(
      200,
    );
  });
});

describe('REQUIRE_VERIFIED_EMAIL off (the default)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('lets an unconfirmed account book and list, as the one-click demo needs', async () => {
    expect(await (await app.request('/api/sign-in-options')).json()).toMatchObject({
      requireVerifiedEmail: false,
    });
    const buyer = await register(app);
    const car = await newCar(app);
    expect((await buyer.post('/api/category', validBooking(car.id))).status).toBe(200);
    expect((await listCar(await register(app, { role: 'Seller' }))).status).toBe(200);
  });
});
