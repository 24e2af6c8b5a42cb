import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { category, listing, payment, user } from '../../db/schema.ts';
import { register, signInAs } from '../../test/client.ts';
import { newCar, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * The database drops our connections in the middle of a request (an operator's
 * pg_terminate_backend, a failover). PostgreSQL only.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('when the database drops us', () => {
  let app: TestApp;
  let admin: pg.Client;
  beforeAll(async () => {
    app = await startTestApp();
    admin = new pg.Client({ connectionString: app.databaseUrl! });
    await admin.connect();
  });
  /** Until one of the server's connections waits for a lock (of the kind `event`, if given). */
  async function untilWaiting(event?: string) {
    await expect
      .poll(
        async () =>
          (
            await admin.query<{ n: number }>(
              `select count(*)::int as n from pg_stat_activity
               where datname = current_database() and pid <> pg_backend_pid()
                 and wait_event_type = 'Lock' and ($1::text is null or wait_event = $1)`,
              [event ?? null],
            )
          ).rows[0]!.n,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
  }

  afterAll(async () => {
    await admin.end().catch(() => {});
    await app.close();
  });

  it('fails the request cleanly, writes nothing half, and recovers by itself', async () => {
    const car = await newCar(app);
    const buyer = await register(app);
    const booked = (await (await buyer.post('/api/category', validBooking(car.id))).json()) as {
      insertedId: string;
    };
    await buyer.post('/api/create-payment-intent', { bookingId: booked.insertedId });
    const [account] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, buyer.account.email));

    // Hold the buyer's hold lock from outside, so the request waits inside its transaction.
    await admin.query('begin');
    await admin.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `hold:${account!.id}`,
    ]);
    const pending = buyer.post('/api/payments/hold', { bookingId: booked.insertedId });
    // Until the request is seen waiting for that lock, inside its transaction.
    await untilWaiting('advisory');
    // Every connection of the server goes, the waiting one among them.
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    await admin.query('rollback');

    const response = await pending;
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unavailable');

    // Nothing half-written: the car is not held, the payment not marked.
    const { rows } = await admin.query<{ status: string; held: boolean }>(
      'select l.status, p.held_at is not null as held from listing l, payment p where l.id = $1 and p.booking_id = $2',
      [car.id, booked.insertedId],
    );
    expect(rows).toEqual([{ status: 'available', held: false }]);

    // The pool opens new connections: ready again, and the same request now works.
    await expect
      .poll(async () => (await app.request('/api/ready')).status, { timeout: 10_000 })
      .toBe(200);
    expect((await buyer.post('/api/payments/hold', { bookingId: booked.insertedId })).status).toBe(
      200,
    );
    const [held] = await app.database.db.select().from(listing).where(eq(listing.id, car.id));
    expect(held?.status).toBe('reserved');
    const [marked] = await app.database.db
      .select()
      .from(payment)
      .where(eq(payment.bookingId, booked.insertedId));
    expect(marked?.heldAt).not.toBeNull();
  });
  it('answers 409, not 500, when a car is listed in a category deleted under it', async () => {
    const staff = await signInAs(app, 'admin@demo.local');
    const name = `Vanishing ${process.pid}`;
    const created = await staff.post('/api/categories', { name });
    expect(created.status).toBe(201);
    const { _id: id } = (await created.json()) as { _id: string };

    // The admin's delete, from outside and not yet committed: the car's insert checks its
    // category after the request found it, and waits on that row.
    await admin.query('begin');
    await admin.query('delete from category where id = $1', [id]);
    const listed = newCar(app, { category: name }).then(
      () => 'listed',
      (error: Error) => error.message,
    );
    await untilWaiting();
    await admin.query('commit');

    expect(await listed).toMatch(/^listing failed: 409 .*"conflict"/);
    expect(await app.database.db.select().from(listing).where(eq(listing.categoryId, id))).toEqual(
      [],
    );
    expect(await app.database.db.select().from(category).where(eq(category.id, id))).toEqual([]);
  });
});
