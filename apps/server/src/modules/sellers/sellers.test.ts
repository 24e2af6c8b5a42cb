import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchResultSchema, SellerProfileSchema } from '@carmarket/shared';
import { queryRows } from '../../db/client.ts';
import { category, conversation, listing, message, sellerCount, user } from '../../db/schema.ts';
import { codeOf, errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { newCar, refundByRuling, TEST_CARD, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { ask, send, talkingEnv } from '../messages/messages.test-helpers.ts';
import { REPLY_FIGURES_KEPT_FROM } from './sellers.service.ts';

/**
 * `GET /api/sellers/:id` and search's `seller=` (issue 32): a seller's profile, their cars'
 * counts and how they reply, and their cars on sale.
 */
describe("a seller's profile", () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: talkingEnv });
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  const idOf = async (email: string) =>
    (await app.database.db.select({ id: user.id }).from(user).where(eq(user.email, email)))[0]!.id;

  async function newSeller(name = 'Profile Motors') {
    const seller = await register(app, { role: 'Seller', name });
    return Object.assign(seller, { id: await idOf(seller.account.email) });
  }

  const setStatus = (id: string, status: 'sold' | 'withdrawn' | 'removed') =>
    app.database.db.update(listing).set({ status }).where(eq(listing.id, id));

  async function profileOf(client: TestClient, id: string) {
    const response = await client.get(`/api/sellers/${id}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return SellerProfileSchema.parse(await response.json());
  }

  const MINUTE = 60_000;
  const DAY = 24 * 60 * MINUTE;

  /**
   * A conversation a new buyer starts about `carId`, its messages' times then moved: the buyer
   * asked `daysAgo` days ago, wrote again at each of `buyerAgain` minutes after, and the seller
   * replied at each of `replies` minutes after the first question.
   */
  async function conversationWith(
    seller: TestClient,
    carId: string,
    daysAgo: number,
    replies: number[],
    buyerAgain: number[] = [],
  ) {
    const buyer = await register(app);
    const { conversationId } = await ask(buyer, carId);
    const timed: { client: TestClient; after: number }[] = [
      ...buyerAgain.map((after) => ({ client: buyer as TestClient, after })),
      ...replies.map((after) => ({ client: seller, after })),
    ].sort((a, b) => a.after - b.after);
    for (const { client } of timed) {
      const sent = await send(client, conversationId, 'A line of the conversation.');
      expect(sent.status, await sent.clone().text()).toBe(200);
    }
    const asked = new Date(Date.now() - daysAgo * DAY);
    const lines = await app.database.db
      .select({ id: message.id })
      .from(message)
      .where(eq(message.conversationId, conversationId))
      .orderBy(message.seq);
    const times = [0, ...timed.map((line) => line.after)];
    expect(lines).toHaveLength(times.length);
    for (const [i, line] of lines.entries()) {
      await app.database.db
        .update(message)
        .set({ createdAt: new Date(asked.getTime() + times[i]! * MINUTE) })
        .where(eq(message.id, line.id));
    }
    await app.database.db
      .update(conversation)
      .set({ createdAt: asked })
      .where(eq(conversation.id, conversationId));
  }

  it("shows a seller's name, verified badge, member since and cars on sale and sold, to a buyer", async () => {
    const seller = await newSeller('Hilltop Cars');
    const cars = await Promise.all([1, 2, 3, 4, 5].map(() => newCar(app, { seller })));
    await setStatus(cars[2]!.id, 'sold');
    await setStatus(cars[3]!.id, 'sold');
    await setStatus(cars[4]!.id, 'withdrawn');
    expect((await admin.request(`/api/user/verify/${seller.id}`, { method: 'PUT' })).status).toBe(
      200,
    );
    const [account] = await app.database.db
      .select({ createdAt: user.createdAt })
      .from(user)
      .where(eq(user.id, seller.id));

    const profile = await profileOf(await register(app), seller.id);
    expect(profile).toEqual({
      _id: seller.id,
      name: 'Hilltop Cars',
      photo: null,
      verified: true,
      memberSince: account!.createdAt.toISOString(),
      carsOnSale: 2,
      carsSold: 2,
      medianReplyMinutes: null,
      replyRate: null,
    });
    // Nothing of the account beyond the profile: no address, no roles.
    expect(JSON.stringify(profile)).not.toContain(seller.account.email);

    // A car brought in with an earlier date (an import, the demo's): member since then.
    const earlier = new Date(account!.createdAt.getTime() - 400 * DAY);
    await app.database.db
      .update(listing)
      .set({ createdAt: earlier })
      .where(eq(listing.id, cars[4]!.id));
    expect((await profileOf(await register(app), seller.id)).memberSince).toBe(
      earlier.toISOString(),
    );
  });

  it("figures how the seller replied in the last 90 days: the median from the buyer's first message to the seller's first reply, and the share answered", async () => {
    const seller = await newSeller();
    const car = await newCar(app, { seller });
    // Answered after 75 minutes: the time runs from the buyer's first message (not their second,
    // at 30) to the seller's first reply (not their second, at 100).
    await conversationWith(seller, car.id, 10, [75, 100], [30]);
    await conversationWith(seller, car.id, 5, [90]);
    await conversationWith(seller, car.id, 2, [60]);
    // Never answered.
    await conversationWith(seller, car.id, 1, []);
    // Older than 90 days: not counted (with it, 5 conversations, 4 answered, median 68).
    await conversationWith(seller, car.id, 100, [5]);

    const profile = await profileOf(await register(app), seller.id);
    expect(profile.medianReplyMinutes).toBe(75);
    expect(profile.replyRate).toBe(0.75);
  });

  it('gives no reply figures from fewer than 3 conversations', async () => {
    const seller = await newSeller();
    const car = await newCar(app, { seller });
    await conversationWith(seller, car.id, 3, [20]);
    await conversationWith(seller, car.id, 2, [40]);
    // A third, but 91 days ago: still two in the window.
    await conversationWith(seller, car.id, 91, [10]);
    const profile = await profileOf(await register(app), seller.id);
    expect(profile.medianReplyMinutes).toBeNull();
    expect(profile.replyRate).toBeNull();

    await conversationWith(seller, car.id, 1, []);
    const three = await profileOf(await register(app), seller.id);
    expect(three.medianReplyMinutes).toBe(30);
    expect(three.replyRate).toBeCloseTo(2 / 3);
  });

  it("keeps a busy seller's reply figures a few minutes, where working them out is costly", async () => {
    const seller = await newSeller('Busy Motors');
    const buyerId = await idOf((await register(app)).account.email);
    const db = app.database.db;
    // REPLY_FIGURES_KEPT_FROM conversations in the window, each about a car of its own, each
    // answered an hour after the buyer asked.
    const [firstCategory] = await db.select({ id: category.id }).from(category).limit(1);
    await db.execute(sql`insert into listing (category_id, seller_id, seller_name, name, condition,
        location, year, make, model, reprice_cents, orprice_cents, currency)
      select ${firstCategory!.id}::uuid, ${seller.id}::uuid, 'Busy Motors', 'Busy car ' || g,
        'Good', 'Fresno, CA', 2020, 'Kia', 'Ceed', 1500000, 1500000, 'USD'
      from generate_series(1, ${REPLY_FIGURES_KEPT_FROM}::int) as g`);
    const askAbout = (carIds: SQL) =>
      db.execute(sql`with asked as (
          insert into conversation (listing_id, buyer_id, seller_id, created_at)
          select id, ${buyerId}::uuid, seller_id, now() - interval '2 days' from listing
          where ${carIds} returning id, created_at)
        insert into message (conversation_id, sender_id, kind, body, created_at)
        select id, ${buyerId}::uuid, 'text', 'Is it still for sale?', created_at from asked`);
    await askAbout(sql`seller_id = ${seller.id}`);
    await db.execute(sql`insert into message (conversation_id, sender_id, kind, body, created_at)
      select id, seller_id, 'text', 'Yes.', created_at + interval '1 hour' from conversation
      where seller_id = ${seller.id}`);
    const viewer = await register(app);
    expect(await profileOf(viewer, seller.id)).toMatchObject({
      medianReplyMinutes: 60,
      replyRate: 1,
    });
    // One more, never answered: the figures read a moment ago still stand.
    const car = await newCar(app, { seller });
    await askAbout(sql`id = ${car.id}`);
    expect(await profileOf(viewer, seller.id)).toMatchObject({
      medianReplyMinutes: 60,
      replyRate: 1,
    });
  });

  it('is not found for a buyer, an administrator, a deleted seller or an id nobody has; 400 for a malformed id', async () => {
    const viewer = await register(app);
    const buyer = await register(app);
    const gone = await newSeller();
    await newCar(app, { seller: gone });
    expect((await admin.request(`/api/user/remove/${gone.id}`, { method: 'DELETE' })).status).toBe(
      200,
    );
    for (const id of [
      await idOf(buyer.account.email),
      await idOf('admin@demo.local'),
      gone.id,
      '00000000-0000-4000-8000-000000000000',
    ]) {
      const response = await viewer.get(`/api/sellers/${id}`);
      expect(response.status, id).toBe(404);
      expect(await errorOf(response)).toEqual({
        code: 'not-found',
        message: 'That seller was not found.',
      });
    }
    const malformed = await viewer.get('/api/sellers/not-an-id');
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).field).toBe('id');
  });

  it('counts the profiles a person opens: past SELLER_PROFILE_LIMIT_PER_MINUTE (60), 429 with Retry-After; others unaffected', async () => {
    const seller = await newSeller('Counted Motors');
    const flooder = await register(app);
    const opened = [];
    for (let i = 0; i < 60; i += 1)
      opened.push((await flooder.get(`/api/sellers/${seller.id}`)).status);
    expect(opened.every((status) => status === 200)).toBe(true);
    const refused = await flooder.get(`/api/sellers/${seller.id}`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(refused)).message).toMatch(
      /^You have opened 60 seller profiles in the last minute, the most we allow\. Try again in (\d+ seconds?|1 minute)\.$/,
    );
    await profileOf(await register(app), seller.id);
  });

  it('asks a visitor to sign in where browsing signed out is off', async () => {
    const response = await new TestClient(app).get(
      `/api/sellers/${await idOf('seller@demo.local')}`,
    );
    expect(response.status).toBe(401);
    expect(await codeOf(response)).toBe('unauthenticated');
  });
});

describe('search by seller', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  async function search(client: TestClient, query: string) {
    const response = await client.get(`/api/listings?${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return SearchResultSchema.parse(await response.json());
  }

  it("finds only that seller's cars on sale, with other filters, facets and pages", async () => {
    const seller = await register(app, { role: 'Seller' });
    const [row] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, seller.account.email));
    const sellerId = row!.id;
    const cheap = await newCar(app, { seller, repriceCents: 900_000 });
    const dear = await newCar(app, { seller, repriceCents: 2_900_000 });
    const sold = await newCar(app, { seller });
    const withdrawn = await newCar(app, { seller });
    await app.database.db.update(listing).set({ status: 'sold' }).where(eq(listing.id, sold.id));
    await app.database.db
      .update(listing)
      .set({ status: 'withdrawn' })
      .where(inArray(listing.id, [withdrawn.id]));
    // Another seller's car of the same price.
    await newCar(app, { repriceCents: 900_000 });

    const buyer = await register(app);
    const all = await search(buyer, `seller=${sellerId}&facets=1`);
    expect(all.items.map((car) => car._id).sort()).toEqual([cheap.id, dear.id].sort());
    expect(all.total).toBe(2);
    expect(all.facets!.price.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(2);

    const underTen = await search(buyer, `seller=${sellerId}&priceMax=1000000`);
    expect(underTen.items.map((car) => car._id)).toEqual([cheap.id]);

    const first = await search(buyer, `seller=${sellerId}&limit=1`);
    expect(first.items.map((car) => car._id)).toEqual([dear.id]);
    const next = await search(buyer, `seller=${sellerId}&limit=1&cursor=${first.nextCursor}`);
    expect(next.items.map((car) => car._id)).toEqual([cheap.id]);
    expect(next.nextCursor).toBeNull();
  });

  it("refuses to save a search of one seller's cars: alerts could not keep to the seller", async () => {
    const buyer = await register(app);
    const sellerId = (
      await app.database.db
        .select({ id: user.id })
        .from(user)
        .where(eq(user.email, 'seller@demo.local'))
    )[0]!.id;
    const response = await buyer.post('/api/saved-searches', {
      name: 'Riverside',
      query: `seller=${sellerId}`,
      alerts: 'instant',
    });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain('seller');
  });

  it('answers 400 naming the field for a malformed seller id', async () => {
    const response = await (await register(app)).get('/api/listings?seller=12345');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe('seller');
  });
});

/*
 * Decision 048: a seller's counts are kept (seller_count, by triggers on the cars' table), not
 * counted per call. Each step of a car's life, and a bulk insert, must leave them as counted.
 */
describe("a seller's counts, kept through their cars' lives", () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: { PAYOUT_SWEEP_SECONDS: '3600' } });
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  /** The kept counts (seller_count), and the seller's cars counted. */
  async function counts(sellerId: string) {
    const [kept] = await app.database.db
      .select({ onSale: sellerCount.onSale, sold: sellerCount.sold })
      .from(sellerCount)
      .where(eq(sellerCount.sellerId, sellerId));
    const [counted] = await queryRows<{ onSale: number; sold: number }>(
      app.database.db,
      sql`select count(*) filter (where status in ('available', 'reserved'))::int as "onSale",
        count(*) filter (where status = 'sold')::int as sold
      from listing where seller_id = ${sellerId}`,
    );
    return { kept: kept ?? { onSale: 0, sold: 0 }, counted };
  }

  /** The profile says `onSale` and `sold`, and so does counting the seller's cars. */
  async function expectCounts(sellerId: string, onSale: number, sold: number, step: string) {
    const { kept, counted } = await counts(sellerId);
    expect(counted, step).toEqual({ onSale, sold });
    expect(kept, step).toEqual({ onSale, sold });
    const response = await (await register(app)).get(`/api/sellers/${sellerId}`);
    expect(response.status, step).toBe(200);
    expect(SellerProfileSchema.parse(await response.json()), step).toMatchObject({
      carsOnSale: onSale,
      carsSold: sold,
    });
  }

  it('counts a car listed, held, sold, withdrawn, relisted, removed and refunded', async () => {
    const seller = await register(app, { role: 'Seller' });
    const sellerId = (
      await app.database.db
        .select({ id: user.id })
        .from(user)
        .where(eq(user.email, seller.account.email))
    )[0]!.id;
    await expectCounts(sellerId, 0, 0, 'a new seller');
    const [first, second, third] = [
      await newCar(app, { seller }),
      await newCar(app, { seller }),
      await newCar(app, { seller }),
    ];
    await expectCounts(sellerId, 3, 0, 'listed');

    // Held while the buyer's card is confirmed: reserved, still on sale.
    const buyer = await register(app);
    const booked = await buyer.post('/api/category', validBooking(first!.id));
    const { insertedId: bookingId } = (await booked.json()) as { insertedId: string };
    const started = await buyer.post('/api/create-payment-intent', { bookingId });
    const { clientSecret } = (await started.json()) as { clientSecret: string };
    expect((await buyer.post('/api/payments/hold', { bookingId })).status).toBe(200);
    const [held] = await app.database.db
      .select({ status: listing.status })
      .from(listing)
      .where(eq(listing.id, first!.id));
    expect(held!.status).toBe('reserved');
    await expectCounts(sellerId, 3, 0, 'held');

    const card = await new TestClient(app).post('/api/payments/sandbox/confirm', {
      clientSecret,
      card: TEST_CARD,
    });
    expect(card.status).toBe(200);
    const transactionId = clientSecret.split('_secret_')[0]!;
    expect((await buyer.post('/api/payments', { bookingId, transactionId })).status).toBe(200);
    await expectCounts(sellerId, 2, 1, 'sold');

    expect((await seller.post(`/api/listings/${second!.id}/withdraw`)).status).toBe(200);
    await expectCounts(sellerId, 1, 1, 'withdrawn');
    expect((await seller.post(`/api/listings/${second!.id}/relist`)).status).toBe(200);
    await expectCounts(sellerId, 2, 1, 'relisted');

    const removed = await admin.post(`/api/listings/${third!.id}/remove`, {});
    expect(removed.status, await removed.clone().text()).toBe(200);
    await expectCounts(sellerId, 1, 1, 'removed');

    // A refund ruling gives the sold car back to its seller, withdrawn (decision 044).
    await refundByRuling(buyer, admin, bookingId);
    await expectCounts(sellerId, 1, 0, 'refunded');
  });

  it("counts a bulk insert of a dealer's cars, and their removal with the account", async () => {
    const seller = await register(app, { role: 'Seller', name: 'Bulk Motors' });
    const [account] = await app.database.db
      .select({ id: user.id, name: user.name })
      .from(user)
      .where(eq(user.email, seller.account.email));
    const [firstCategory] = await app.database.db.select({ id: category.id }).from(category);
    await newCar(app, { seller });
    // One statement, as a seed or an import writes many cars: 30 on sale, 15 sold, 5 withdrawn.
    const statuses = [
      ...Array<'available'>(25).fill('available'),
      ...Array<'reserved'>(5).fill('reserved'),
      ...Array<'sold'>(15).fill('sold'),
      ...Array<'withdrawn'>(5).fill('withdrawn'),
    ];
    await app.database.db.insert(listing).values(
      statuses.map((status, i) => ({
        categoryId: firstCategory!.id,
        sellerId: account!.id,
        sellerName: account!.name,
        name: `Bulk car ${i + 1}`,
        condition: 'Good' as const,
        location: 'Fresno, CA',
        year: 2020,
        make: 'Kia',
        model: 'Ceed',
        repriceCents: 1_500_000,
        orpriceCents: 1_500_000,
        currency: 'USD',
        status,
      })),
    );
    await expectCounts(account!.id, 31, 15, 'bulk insert');
    // Another statement over many cars that changes no count (a category's cars moved) keeps them.
    await app.database.db
      .update(listing)
      .set({ location: 'Sacramento, CA' })
      .where(eq(listing.sellerId, account!.id));
    await expectCounts(account!.id, 31, 15, 'cars edited in bulk');

    // Deleting the account removes its cars on sale; the sold stay on record.
    expect(
      (await admin.request(`/api/user/remove/${account!.id}`, { method: 'DELETE' })).status,
    ).toBe(200);
    const { kept, counted } = await counts(account!.id);
    expect(counted).toEqual({ onSale: 0, sold: 15 });
    expect(kept).toEqual(counted);

    // And cars deleted outright (an account's records purged) leave the counts too.
    await app.database.db.delete(listing).where(eq(listing.sellerId, account!.id));
    expect((await counts(account!.id)).kept).toEqual({ onSale: 0, sold: 0 });
  });
});
