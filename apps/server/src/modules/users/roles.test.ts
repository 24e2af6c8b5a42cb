import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminUserListSchema, BookingListSchema, RolesSchema } from '@carmarket/shared';
import { codeOf, errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { newCar, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { uploadPhoto } from '../../test/uploads.ts';

/** The spec's three role calls for one email, as one object. */
async function flags(client: TestClient, email: string) {
  const read = async (kind: string) =>
    (await (await client.get(`/api/user/${kind}/${encodeURIComponent(email)}`)).json()) as object;
  return { ...(await read('admin')), ...(await read('buyer')), ...(await read('seller')) };
}

describe('becoming a seller: one account, two roles', () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  it('a Buyer adds Seller and keeps their bookings', async () => {
    const buyer = await register(app, { name: 'Becoming Seller' });
    const [booked1, booked2, saved] = [await newCar(app), await newCar(app), await newCar(app)];
    const booked = await buyer.post('/api/category', validBooking(booked1.id));
    expect(booked.status).toBe(200);
    // Not a seller yet: the seller's calls refuse.
    expect((await buyer.get('/api/my/listings')).status).toBe(403);

    const response = await buyer.post('/api/user/roles', { role: 'Seller' });
    expect(response.status).toBe(200);
    expect(RolesSchema.parse(await response.json())).toEqual({
      acknowledged: true,
      roles: ['Buyer', 'Seller'],
    });
    // Asking again (a retried request) changes nothing.
    expect(await (await buyer.post('/api/user/roles', { role: 'Seller' })).json()).toEqual({
      acknowledged: true,
      roles: ['Buyer', 'Seller'],
    });

    // The same session now sells: it lists a car and sees its own cars.
    const listed = await buyer.post('/api/product?name=Electric%20car', {
      name: 'Second Life EV',
      reprice: 15_000_00,
      orprice: 22_000_00,
      location: 'Tulsa, OK',
      year: 2020,
      condition: 'Good',
      describe: 'Listed by someone who also buys.',
      images: [await uploadPhoto(buyer)],
    });
    expect(listed.status, await listed.clone().text()).toBe(200);
    expect((await buyer.get('/api/my/listings')).status).toBe(200);
    expect((await buyer.get('/api/bookedItem')).status).toBe(200);

    // And still buys: the booking is there, and booking and saving still work.
    const orders = BookingListSchema.parse(
      await (await buyer.get(`/api/booked?email=${buyer.account.email}`)).json(),
    );
    expect(orders.map((b) => b.listingId)).toContain(booked1.id);
    expect((await buyer.post('/api/category', validBooking(booked2.id))).status).toBe(200);
    expect((await buyer.request(`/api/saved-cars/${saved.id}`, { method: 'PUT' })).status).toBe(
      200,
    );
    // Never their own car.
    const { insertedId } = (await listed.json()) as { insertedId: string };
    const own = await buyer.post('/api/category', validBooking(insertedId));
    expect(own.status).toBe(403);
    expect((await errorOf(own)).message).toBe('You cannot book your own car.');
  });

  it("answers the spec's role calls with both roles, and as before for one-role accounts", async () => {
    const both = await register(app);
    await both.post('/api/user/roles', { role: 'Seller' });
    expect(await flags(both, both.account.email)).toEqual({
      isAdmin: false,
      isBuyer: true,
      isSeller: true,
    });
    const buyer = await signInAs(app, 'buyer@demo.local');
    expect(await flags(buyer, 'buyer@demo.local')).toEqual({
      isAdmin: false,
      isBuyer: true,
      isSeller: false,
    });
    const seller = await signInAs(app, 'seller@demo.local');
    expect(await flags(seller, 'seller@demo.local')).toEqual({
      isAdmin: false,
      isBuyer: false,
      isSeller: true,
    });

    // The spec's single `role` keeps the role chosen at sign-up; `roles` lists both.
    const users = AdminUserListSchema.parse(
      await (await admin.get(`/api/all/user?q=${encodeURIComponent(both.account.email)}`)).json(),
    );
    expect(users[0]).toMatchObject({ role: 'Buyer', roles: ['Buyer', 'Seller'] });
    for (const role of ['Seller', 'Buyer']) {
      const list = AdminUserListSchema.parse(
        await (await admin.get(`/api/all/user?role=${role}&pageSize=100`)).json(),
      );
      expect(
        list.map((u) => u.email),
        role,
      ).toContain(both.account.email);
    }
    // The sign-up role is still set once: the same again is fine, another is a conflict.
    const same = await both.post('/api/user', { email: both.account.email, role: 'Buyer' });
    expect(same.status).toBe(200);
    const other = await both.post('/api/user', { email: both.account.email, role: 'Seller' });
    expect(other.status).toBe(409);
  });

  it('lets a Seller buy too, and an admin verify the new seller', async () => {
    const seller = await register(app, { role: 'Seller' });
    const car = await newCar(app);
    expect((await seller.post('/api/category', validBooking(car.id))).status).toBe(403);
    const response = await seller.post('/api/user/roles', { role: 'Buyer' });
    expect(await response.json()).toEqual({ acknowledged: true, roles: ['Seller', 'Buyer'] });
    expect((await seller.post('/api/category', validBooking(car.id))).status).toBe(200);

    const buyer = await register(app);
    await buyer.post('/api/user/roles', { role: 'Seller' });
    const [row] = AdminUserListSchema.parse(
      await (await admin.get(`/api/all/user?q=${encodeURIComponent(buyer.account.email)}`)).json(),
    );
    expect((await admin.request(`/api/user/verify/${row!._id}`, { method: 'PUT' })).status).toBe(
      200,
    );
  });

  it('records the change in the audit log', async () => {
    const buyer = await register(app);
    await buyer.post('/api/user/roles', { role: 'Seller' });
    const log = (await (await admin.get('/api/audit')).json()) as Array<{
      action: string;
      details: { email?: string; role?: string };
    }>;
    expect(log.find((line) => line.details.email === buyer.account.email)).toMatchObject({
      action: 'user.add-role',
      details: { role: 'Seller' },
    });
  });

  it('is not for an administrator, an account without a role yet, or admin as a role', async () => {
    const answer = await admin.post('/api/user/roles', { role: 'Seller' });
    expect(answer.status).toBe(403);
    const fresh = await register(app, { role: undefined });
    const early = await fresh.post('/api/user/roles', { role: 'Seller' });
    expect(early.status).toBe(403);
    expect((await errorOf(early)).message).toMatch(/Choose Buyer or Seller/);
    const buyer = await register(app);
    const promote = await buyer.post('/api/user/roles', { role: 'admin' });
    expect(promote.status).toBe(400);
    expect(await codeOf(promote)).toBe('validation-failed');
    expect((await new TestClient(app).post('/api/user/roles', { role: 'Seller' })).status).toBe(
      401,
    );
  });

  it('adds the role once when asked twice at the same moment', async () => {
    const buyer = await register(app);
    const answers = await Promise.all([
      buyer.post('/api/user/roles', { role: 'Seller' }),
      buyer.post('/api/user/roles', { role: 'Seller' }),
    ]);
    for (const answer of answers) {
      expect(await answer.json()).toEqual({ acknowledged: true, roles: ['Buyer', 'Seller'] });
    }
  });
});
