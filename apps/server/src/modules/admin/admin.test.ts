import { and, eq, isNull, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminUserListSchema,
  AuditListSchema,
  CategoryDetailSchema,
  MyListingListSchema,
  StatsSchema,
  UserCarsSchema,
  type Stats,
} from '@carmarket/shared';
import { booking, listing, user } from '../../db/schema.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { codeOf, errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { newCar, newSeller, paidBooking, payFor, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

async function idOf(app: TestApp, email: string) {
  const [row] = await app.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, email));
  return row!.id;
}

describe('admin calls', () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  it('refuses every admin call to anonymous callers (401), buyers and sellers (403)', async () => {
    const sellerId = await idOf(app, 'seller@demo.local');
    const calls: Array<[string, string]> = [
      ['GET', '/api/all/user'],
      ['PUT', `/api/user/verify/${sellerId}`],
      ['DELETE', `/api/user/remove/${sellerId}`],
      ['GET', '/api/audit'],
    ];
    for (const [method, path] of calls) {
      expect((await new TestClient(app).request(path, { method })).status, path).toBe(401);
      for (const email of ['buyer@demo.local', 'seller@demo.local']) {
        const response = await (await signInAs(app, email)).request(path, { method });
        expect(response.status, `${email} ${path}`).toBe(403);
        expect(await codeOf(response)).toBe('forbidden');
      }
    }
  });

  it('lists users with filters, search and pages, and never a secret field', async () => {
    const response = await admin.get('/api/all/user');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Array<Record<string, unknown>>;
    const users = AdminUserListSchema.parse(body);
    expect(users.map((u) => u.email)).toEqual(
      expect.arrayContaining(['admin@demo.local', 'seller@demo.local', 'buyer@demo.local']),
    );
    for (const row of body)
      expect(Object.keys(row).sort()).toEqual(
        expect.arrayContaining(['_id', 'name', 'email', 'role', 'createdAt']),
      );
    expect(JSON.stringify(body)).not.toMatch(/password|token|secret/i);
    expect(Number(response.headers.get('x-total-count'))).toBe(users.length);

    const sellers = AdminUserListSchema.parse(
      await (await admin.get('/api/all/user?role=Seller')).json(),
    );
    expect(sellers.every((u) => u.role === 'Seller')).toBe(true);
    const buyers = AdminUserListSchema.parse(
      await (await admin.get('/api/all/user?role=Buyer')).json(),
    );
    expect(buyers.map((u) => u.email)).toContain('buyer@demo.local');
    const found = AdminUserListSchema.parse(
      await (await admin.get('/api/all/user?q=RIVERSIDE')).json(),
    );
    expect(found.map((u) => u.email)).toEqual(['seller@demo.local']);
    expect(
      AdminUserListSchema.parse(await (await admin.get('/api/all/user?q=%25')).json()),
    ).toEqual([]);

    for (let i = 0; i < 3; i += 1) await register(app);
    const page1 = AdminUserListSchema.parse(
      await (await admin.get('/api/all/user?pageSize=2&page=1')).json(),
    );
    const page2 = AdminUserListSchema.parse(
      await (await admin.get('/api/all/user?pageSize=2&page=2')).json(),
    );
    expect(page1).toHaveLength(2);
    expect(page2).toHaveLength(2);
    expect(page1.map((u) => u._id)).not.toEqual(page2.map((u) => u._id));
    expect((await admin.get('/api/all/user?role=Wizard')).status).toBe(400);
    expect((await admin.get('/api/all/user?page=0')).status).toBe(400);
  });

  it("gives each list's total as a count of its live accounts would, after sign-ups, a role added and deletions", async () => {
    const { db } = app.database;
    const totalOf = async (query: string) =>
      Number((await admin.get(`/api/all/user${query}`)).headers.get('x-total-count'));
    const counted = async (role?: string) => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(user)
        .where(
          and(
            isNull(user.deletedAt),
            role ? sql`${user.roles} @> array[${role}]::text[]` : undefined,
          ),
        );
      return row!.n;
    };
    const expectTotals = async () => {
      expect(await totalOf('')).toBe(await counted());
      for (const role of ['Buyer', 'Seller', 'admin']) {
        expect(await totalOf(`?role=${role}`), role).toBe(await counted(role));
      }
    };
    await expectTotals();

    const buyer = await register(app);
    const seller = await register(app, { role: 'Seller' });
    await register(app, { role: undefined }); // an account that has not chosen its type yet
    await expectTotals();
    const buyersBefore = await totalOf('?role=Buyer');

    // A buyer who starts selling is in both lists.
    expect((await buyer.post('/api/user/roles', { role: 'Seller' })).status).toBe(200);
    expect(await totalOf('?role=Buyer')).toBe(buyersBefore);
    await expectTotals();

    for (const gone of [buyer, seller]) {
      const id = await idOf(app, gone.account.email);
      expect((await admin.request(`/api/user/remove/${id}`, { method: 'DELETE' })).status).toBe(
        200,
      );
    }
    expect(await totalOf('?role=Buyer')).toBe(buyersBefore - 1);
    await expectTotals();

    // Writes made straight to the table are counted too: many rows at once, and a row removed.
    await db.insert(user).values(
      Array.from({ length: 3 }, (_, i) => ({
        name: `Straight ${i}`,
        email: `straight${i}.${Date.now()}@example.com`,
        roles: ['Buyer' as const],
      })),
    );
    await expectTotals();
    await db.delete(user).where(like(user.email, 'straight%'));
    await expectTotals();
  });

  it('verifies a seller: the badge shows on their cars, and the call is audited', async () => {
    // A seller of its own: the demo seller is seeded verified.
    const newSeller = await register(app, { role: 'Seller' });
    const car = await newCar(app, { seller: newSeller });
    const sellerId = await idOf(app, newSeller.account.email);
    const badge = async () =>
      CategoryDetailSchema.parse(
        await (await admin.get(`/api/category/${car.categoryId}`)).json(),
      ).listings.find((l) => l._id === car.id)?.sellerVerified;
    expect(await badge()).toBe(false);
    const first = await admin.request(`/api/user/verify/${sellerId}`, { method: 'PUT' });
    expect(await first.json()).toEqual({ acknowledged: true, modifiedCount: 1 });
    const again = await admin.request(`/api/user/verify/${sellerId}`, { method: 'PUT' });
    expect(await again.json()).toEqual({ acknowledged: true, modifiedCount: 0 });
    const sellers = AdminUserListSchema.parse(
      await (
        await admin.get(
          `/api/all/user?role=Seller&q=${encodeURIComponent(newSeller.account.email)}`,
        )
      ).json(),
    );
    expect(sellers[0]?.verify).toBe('true');

    expect(await badge()).toBe(true);

    const buyerId = await idOf(app, 'buyer@demo.local');
    expect((await admin.request(`/api/user/verify/${buyerId}`, { method: 'PUT' })).status).toBe(
      409,
    );
    expect(
      (
        await admin.request('/api/user/verify/0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10', {
          method: 'PUT',
        })
      ).status,
    ).toBe(404);
    expect((await admin.request('/api/user/verify/abc', { method: 'PUT' })).status).toBe(400);

    const log = AuditListSchema.parse(await (await admin.get('/api/audit')).json());
    expect(log.find((e) => e.action === 'user.verify')).toMatchObject({
      targetId: sellerId,
      actor: { email: 'admin@demo.local' },
    });
  });

  it('never deletes an admin or the caller', async () => {
    const adminId = await idOf(app, 'admin@demo.local');
    const self = await admin.request(`/api/user/remove/${adminId}`, { method: 'DELETE' });
    expect(self.status).toBe(403);
    expect((await errorOf(self)).message).toBe('You cannot delete your own account.');
    const other = await register(app, { role: undefined });
    await app.database.db
      .update(user)
      .set({ roles: ['admin'] })
      .where(eq(user.email, other.account.email));
    const otherAdmin = await admin.request(
      `/api/user/remove/${await idOf(app, other.account.email)}`,
      { method: 'DELETE' },
    );
    expect(otherAdmin.status).toBe(403);
    expect((await errorOf(otherAdmin)).message).toBe('Admin accounts cannot be deleted.');
    expect((await admin.request('/api/user/remove/nope', { method: 'DELETE' })).status).toBe(400);
    expect(
      (
        await admin.request('/api/user/remove/0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10', {
          method: 'DELETE',
        })
      ).status,
    ).toBe(404);
  });
});

describe('deleting a user', () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  it('signs a buyer out everywhere, cancels their open bookings, keeps paid records', async () => {
    const [open, paid] = [await newCar(app), await newCar(app)];
    const buyer = await register(app);
    const { accessToken } = (await (
      await buyer.get(`/api/jwt?email=${buyer.account.email}`)
    ).json()) as { accessToken: string };
    const bearer = new TestClient(app);
    bearer.bearer = accessToken;
    const { insertedId: openId } = (await (
      await buyer.post('/api/category', validBooking(open.id))
    ).json()) as { insertedId: string };
    const { insertedId: paidId } = (await (
      await buyer.post('/api/category', validBooking(paid.id))
    ).json()) as { insertedId: string };
    await payFor(buyer, paidId);
    // The buyer is holding a car at checkout when the account goes.
    expect((await buyer.post('/api/create-payment-intent', { bookingId: openId })).status).toBe(
      200,
    );

    const buyerId = await idOf(app, buyer.account.email);
    const response = await admin.request(`/api/user/remove/${buyerId}`, { method: 'DELETE' });
    expect(await response.json()).toEqual({ acknowledged: true, deletedCount: 1 });

    const cookie = await buyer.get(`/api/user/buyer/${buyer.account.email}`);
    expect(cookie.status).toBe(401);
    const token = await bearer.get(`/api/user/buyer/${buyer.account.email}`);
    expect(token.status).toBe(401);
    expect(await codeOf(token)).toBe('user-disabled');
    const signIn = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: buyer.account.email,
      password: buyer.account.password,
    });
    expect(signIn.status).toBe(403);
    expect(await codeOf(signIn)).toBe('user-disabled');

    const rows = await app.database.db.select().from(booking).where(eq(booking.buyerId, buyerId));
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [openId]: 'cancelled',
      [paidId]: 'paid',
    });
    const [freed] = await app.database.db.select().from(listing).where(eq(listing.id, open.id));
    expect(freed).toMatchObject({ status: 'available', holdBookingId: null });
    const users = AdminUserListSchema.parse(
      await (await admin.get('/api/all/user?pageSize=100')).json(),
    );
    expect(users.map((u) => u.email)).not.toContain(buyer.account.email);
    const mail = await readOutbox(app.outboxDir);
    expect(
      mail.some((m) => m.to === 'seller@demo.local' && m.subject.startsWith('A booking of')),
    ).toBe(true);
    expect((await admin.request(`/api/user/remove/${buyerId}`, { method: 'DELETE' })).status).toBe(
      404,
    );
  });

  it("removes a seller's cars from sale and closes their bookings, telling the buyers", async () => {
    const car = await newCar(app);
    const buyer = await register(app);
    await buyer.post('/api/category', validBooking(car.id));
    const sellerId = await idOf(app, 'seller@demo.local');
    expect((await admin.request(`/api/user/remove/${sellerId}`, { method: 'DELETE' })).status).toBe(
      200,
    );

    const categories = (await (await app.request('/api/category')).json()) as Array<{
      count: number;
    }>;
    expect(categories.map((c) => c.count)).toEqual([0, 0, 0]);
    const mine = (await (
      await buyer.get(`/api/booked?email=${buyer.account.email}`)
    ).json()) as Array<{ listingId: string; status: string }>;
    expect(mine.find((b) => b.listingId === car.id)?.status).toBe('closed');
    const mail = await readOutbox(app.outboxDir);
    expect(
      mail.some((m) => m.to === buyer.account.email && m.subject.includes('no longer available')),
    ).toBe(true);
    const log = AuditListSchema.parse(await (await admin.get('/api/audit')).json());
    expect(log[0]).toMatchObject({
      action: 'user.delete',
      targetId: sellerId,
      details: expect.objectContaining({ carsRemoved: expect.any(Number) }),
    });
  });
});

describe('GET /api/stats', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it("answers each role's dashboard figures, with 30 days of sales", async () => {
    const car = await newCar(app);
    const buyer = await register(app);
    const { insertedId } = (await (
      await buyer.post('/api/category', validBooking(car.id))
    ).json()) as { insertedId: string };
    await payFor(buyer, insertedId);

    const mine = StatsSchema.parse(await (await buyer.get('/api/stats')).json());
    expect(mine).toMatchObject({
      role: 'Buyer',
      bookingsByStatus: { paid: 1 },
      spentCents: car.repriceCents,
    });
    const seller = StatsSchema.parse(
      await (await (await signInAs(app, 'seller@demo.local')).get('/api/stats')).json(),
    );
    // 18 demo cars, and the one now sold.
    expect(seller.listingsByStatus).toMatchObject({ available: 18, sold: 1 });
    expect(seller.sales).toHaveLength(30);
    expect(seller.sales.at(-1)).toMatchObject({ count: 1, amountCents: car.repriceCents });
    const admin = StatsSchema.parse(
      await (await (await signInAs(app, 'admin@demo.local')).get('/api/stats')).json(),
    );
    expect(admin.usersByRole).toMatchObject({ admin: 1, Seller: 1 });
    expect(admin.usersByRole.Buyer).toBeGreaterThanOrEqual(2);
    expect((await new TestClient(app).get('/api/stats')).status).toBe(401);
  });

  it('leaves a booking refunded after a dispute out of the sales, on every dashboard', async () => {
    const statsOf = async (client: TestClient) =>
      StatsSchema.parse(await (await client.get('/api/stats')).json());
    const salesOf = (stats: Stats) => stats.sales.reduce((sum, day) => sum + day.amountCents, 0);
    const admin = await signInAs(app, 'admin@demo.local');
    const seller = await newSeller(app);
    await paidBooking(app, { seller, repriceCents: 2_000_000 });
    const refunded = await paidBooking(app, { seller, repriceCents: 3_000_000 });
    const before = await statsOf(admin);

    const reported = await refunded.buyer.post(`/api/booked/${refunded.bookingId}/dispute`, {
      reason: 'The car never came: the seller stopped answering.',
    });
    const { handover } = (await reported.json()) as { handover: { disputeId: string } };
    const ruled = await admin.post(`/api/disputes/${handover.disputeId}/resolve`, {
      outcome: 'refund',
      note: 'The seller did not hand the car over.',
    });
    expect(ruled.status).toBe(200);

    const sellers = await statsOf(seller);
    expect(sellers.listingsByStatus).toEqual({ sold: 1, withdrawn: 1 });
    expect(sellers.bookingsByStatus).toEqual({ paid: 1, refunded: 1 });
    expect(sellers.sales.at(-1)).toMatchObject({ count: 1, amountCents: 2_000_000 });
    const buyers = await statsOf(refunded.buyer);
    expect(buyers).toMatchObject({ bookingsByStatus: { refunded: 1 }, spentCents: 0 });
    expect(buyers.bookingsByStatus.paid).toBeUndefined();
    expect(salesOf(buyers)).toBe(0);
    const after = await statsOf(admin);
    expect(after.bookingsByStatus.paid).toBe(before.bookingsByStatus.paid! - 1);
    expect(after.bookingsByStatus.refunded).toBe((before.bookingsByStatus.refunded ?? 0) + 1);
    expect(after.listingsByStatus.sold).toBe(before.listingsByStatus.sold! - 1);
    expect(salesOf(after)).toBe(salesOf(before) - 3_000_000);
  });
});

describe('GET /api/audit: entries about a booking', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it("names the booking's car, for the log's words about hand-overs and disputes", async () => {
    const admin = await signInAs(app, 'admin@demo.local');
    const { car, buyer, bookingId } = await paidBooking(app);
    expect((await buyer.post(`/api/booked/${bookingId}/handover`)).status).toBe(200);

    const log = AuditListSchema.parse(await (await admin.get('/api/audit')).json());
    const confirmed = log.find(
      (entry) => entry.action === 'handover.confirmed' && entry.targetId === bookingId,
    );
    expect(confirmed).toMatchObject({
      booking: { _id: bookingId, listingId: car.id, carName: car.name, currency: 'USD' },
      details: { sellerCents: expect.any(Number), feeCents: expect.any(Number) },
    });
    // Entries about other things name no booking.
    const sale = log.find((entry) => entry.action === 'sale' && entry.targetId === car.id);
    expect(sale?.booking).toBeNull();
  });
});

describe("a person's cars, as admins see them", () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  it('GET /api/users/:id/listings lists every car of the person, removed ones too', async () => {
    const seller = await signInAs(app, 'seller@demo.local');
    const sellerId = await idOf(app, 'seller@demo.local');
    const car = await newCar(app);
    expect((await admin.post(`/api/listings/${car.id}/remove`, { reason: 'Test' })).status).toBe(
      200,
    );

    const { user: owner, listings } = UserCarsSchema.parse(
      await (await admin.get(`/api/users/${sellerId}/listings`)).json(),
    );
    expect(owner).toMatchObject({ _id: sellerId, email: 'seller@demo.local', role: 'Seller' });
    // The 18 demo cars, and the removed one.
    expect(listings).toHaveLength(19);
    expect(listings.find((listing) => listing._id === car.id)?.status).toBe('removed');
    // The seller's own list leaves the removed car out, as before.
    const own = MyListingListSchema.parse(await (await seller.get('/api/my/listings')).json());
    expect(own).toHaveLength(18);

    expect((await seller.get(`/api/users/${sellerId}/listings`)).status).toBe(403);
    expect((await admin.get('/api/users/nope/listings')).status).toBe(400);
    expect(
      (await admin.get('/api/users/0d7c0a1e-2a52-4c51-9b0b-7f6f2a1d9e10/listings')).status,
    ).toBe(404);
  });

  it("keeps a deleted seller's withdrawn cars withdrawn in the figures, not removed by an admin", async () => {
    const seller = await signInAs(app, 'seller@demo.local');
    const sellerId = await idOf(app, 'seller@demo.local');
    const onSale = async () =>
      (
        await app.database.db
          .select({ id: listing.id })
          .from(listing)
          .where(and(eq(listing.sellerId, sellerId), eq(listing.status, 'available')))
      ).map((car) => car.id);
    const toWithdraw = (await newCar(app)).id;
    expect((await seller.post(`/api/listings/${toWithdraw}/withdraw`)).status).toBe(200);
    const stillOnSale = (await onSale()).length;
    const before = StatsSchema.parse(await (await admin.get('/api/stats')).json());

    expect((await admin.request(`/api/user/remove/${sellerId}`, { method: 'DELETE' })).status).toBe(
      200,
    );

    const after = StatsSchema.parse(await (await admin.get('/api/stats')).json());
    expect(after.listingsByStatus.withdrawn).toBe(before.listingsByStatus.withdrawn);
    expect(after.listingsByStatus.removed).toBe(
      (before.listingsByStatus.removed ?? 0) + stillOnSale,
    );
    const [kept] = await app.database.db
      .select({ status: listing.status })
      .from(listing)
      .where(eq(listing.id, toWithdraw));
    expect(kept?.status).toBe('withdrawn');
  });
});
