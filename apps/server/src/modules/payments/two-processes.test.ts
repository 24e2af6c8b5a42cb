import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing, payment, sandboxEvent } from '../../db/schema.ts';
import { errorOf, register } from '../../test/client.ts';
import { newCar, validBooking } from '../../test/fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';
import { startTwoServers } from '../../test/two-servers.ts';
import { hold } from './payments.test-helpers.ts';

/**
 * Two servers on one PostgreSQL database (and one Redis, when it runs), as behind a load
 * balancer: each has its own connection pool and its own sweeper, and shares nothing in memory
 * with the other. PostgreSQL only: PGlite is one process's database.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('two servers, one database', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    // Sweeps run only when a test asks for them. Behind one proxy: the buyer who holds a car
    // another let go asks from another network (decision 047).
    [first, second] = await startTwoServers({ PAYMENT_SWEEP_SECONDS: '3600', TRUST_PROXY: '1' });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('sees a hold taken on the other, and frees a lapsed hold exactly once', async () => {
    const car = await newCar(first);
    // One buyer pays through the first server; another asks the second.
    const holder = await register(first);
    const rival = await register(second);
    const holding = (await (await holder.post('/api/category', validBooking(car.id))).json()) as {
      insertedId: string;
    };
    const waiting = (await (await rival.post('/api/category', validBooking(car.id))).json()) as {
      insertedId: string;
    };
    await holder.post('/api/create-payment-intent', { bookingId: holding.insertedId });
    await rival.post('/api/create-payment-intent', { bookingId: waiting.insertedId });
    expect(
      (await holder.post('/api/payments/hold', { bookingId: holding.insertedId })).status,
    ).toBe(200);

    const refused = await rival.post('/api/payments/hold', { bookingId: waiting.insertedId });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).reservedUntil).toBeDefined();
    const page = (await (await rival.get(`/api/listings/${car.id}`)).json()) as {
      status: string;
      reservedUntil: string | null;
    };
    expect(page.status).toBe('reserved');

    // The hold lapses; both servers sweep at the same moment.
    await first.database.db
      .update(listing)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(listing.id, car.id));
    // (The processor's cancel event frees the car; a sweep that finds it already freed frees
    // nothing more.)
    await Promise.all([first.payments.sweep(), second.payments.sweep()]);
    const [freed] = await first.database.db.select().from(listing).where(eq(listing.id, car.id));
    expect(freed).toMatchObject({ status: 'available', holdBookingId: null });
    // Its payment was canceled at the processor once, and only once.
    const [open] = await first.database.db
      .select()
      .from(payment)
      .where(eq(payment.bookingId, holding.insertedId));
    const cancels = await first.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sandboxEvent)
      .where(
        and(
          eq(sandboxEvent.type, 'payment_intent.canceled'),
          sql`${sandboxEvent.payload} like ${`%${open!.providerPaymentId}%`}`,
        ),
      );
    expect(cancels[0]!.n).toBe(1);
    expect(open!.status).toBe('canceled');
    // The other buyer can now hold it, through either server.
    expect((await hold(rival, waiting.insertedId, '203.0.113.9')).response.status).toBe(200);
  });
});
