import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, TestClient, type Server } from '../../test/client.ts';
import { startChildServer, type ChildServer } from '../../test/child-server.ts';
import { newCar, TEST_CARD, validBooking } from '../../test/fixtures.ts';
import { createTestDatabase } from '../../test/test-app.ts';

/**
 * kill -9 between the processor's charge and our record of it, then a restart on the same
 * PostgreSQL database: however the story goes on, the buyer is charged once, or refunded.
 * PostgreSQL only: a killed process must not be the only one holding the database. Each test
 * starts two server processes, up to 20 s each on a busy machine: it has longer than the default.
 */
const onPostgreSQL = describe.skipIf(!process.env.TEST_DATABASE_URL);
onPostgreSQL('a crash between the charge and our record', { timeout: 90_000 }, () => {
  let databaseUrl: string;
  let dataDir: string;
  let sql: pg.Client;
  const running: ChildServer[] = [];
  beforeAll(async () => {
    databaseUrl = (await createTestDatabase())!;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-crash-'));
    sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
  });
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
    await sql.end().catch(() => {});
  });

  async function start(env: Record<string, string>, port?: number) {
    const server = await startChildServer(
      { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, WEB_DIST_DIR: dataDir, ...env },
      port,
    );
    running.push(server);
    return server;
  }

  /** A buyer books a new car and pays; the server dies the moment the charge succeeds. */
  async function payAndCrash() {
    const server = await start({ FAULT_INJECTION: 'crash-after-charge' });
    const car = await newCar(server);
    const buyer = await register(server);
    const booked = await buyer.post('/api/category', validBooking(car.id));
    expect(booked.status).toBe(200);
    const { insertedId: bookingId } = (await booked.json()) as { insertedId: string };
    const started = await buyer.post('/api/create-payment-intent', { bookingId });
    expect(started.status).toBe(200);
    const { clientSecret } = (await started.json()) as { clientSecret: string };
    // As the payment page does when the card form is sent: hold the car, then confirm.
    expect((await buyer.post('/api/payments/hold', { bookingId })).status).toBe(200);
    await new TestClient(server)
      .post('/api/payments/sandbox/confirm', { clientSecret, card: TEST_CARD })
      .catch(() => undefined);
    expect(await server.exited).toBe('SIGKILL');
    return {
      buyer,
      bookingId,
      listingId: car.id,
      port: server.port,
      intentId: clientSecret.split('_secret_')[0]!,
    };
  }

  /** What the processor kept, and what we recorded, for one booking. */
  async function ledger(bookingId: string, listingId: string) {
    const charges = await sql.query<{ id: string; refunded: boolean }>(
      "select id, refunded from sandbox_intent where metadata->>'bookingId' = $1 and status = 'succeeded'",
      [bookingId],
    );
    const [booking] = (
      await sql.query<{ status: string; transaction_id: string | null }>(
        'select status, transaction_id from booking where id = $1',
        [bookingId],
      )
    ).rows;
    const payments = await sql.query<{ provider_payment_id: string; status: string }>(
      'select provider_payment_id, status from payment where booking_id = $1',
      [bookingId],
    );
    const [car] = (
      await sql.query<{ status: string }>('select status from listing where id = $1', [listingId])
    ).rows;
    return {
      kept: charges.rows.filter((charge) => !charge.refunded).map((charge) => charge.id),
      refunded: charges.rows.filter((charge) => charge.refunded).map((charge) => charge.id),
      booking,
      payments: payments.rows,
      carStatus: car?.status,
    };
  }

  async function expectSoldOnce(bookingId: string, listingId: string) {
    const books = await ledger(bookingId, listingId);
    expect(books.kept).toHaveLength(1);
    expect(books.refunded).toHaveLength(0);
    expect(books.booking).toMatchObject({ status: 'paid', transaction_id: books.kept[0] });
    expect(books.payments).toContainEqual({
      provider_payment_id: books.kept[0],
      status: 'succeeded',
    });
    expect(books.carStatus).toBe('sold');
  }

  it('A: the buyer asks again, and the charge is recorded once', async () => {
    const crash = await payAndCrash();
    // No sweep runs here (an hour apart), so only the buyer's retry can settle it.
    const server = await start({ PAYMENT_SWEEP_SECONDS: '3600' }, crash.port);
    const retry = await crash.buyer.post('/api/payments', {
      bookingId: crash.bookingId,
      transactionId: crash.intentId,
    });
    expect(retry.status).toBe(200);
    const again = await crash.buyer.post('/api/payments', {
      bookingId: crash.bookingId,
      transactionId: crash.intentId,
    });
    expect(again.status).toBe(200);
    await expectSoldOnce(crash.bookingId, crash.listingId);
    await server.stop();
  });

  it('B: nobody acts, and the restarted server completes the sale by itself', async () => {
    const crash = await payAndCrash();
    const server = await start({ PAYMENT_SWEEP_SECONDS: '1' }, crash.port);
    // Its sweeps send the processor's event again, which records the sale.
    await expect
      .poll(async () => (await ledger(crash.bookingId, crash.listingId)).booking?.status, {
        timeout: 20_000,
        interval: 200,
      })
      .toBe('paid');
    await expectSoldOnce(crash.bookingId, crash.listingId);
    await server.stop();
  });

  it('C: the buyer reopens the payment page, and is not charged a second time', async () => {
    const crash = await payAndCrash();
    const server: Server = await start({ PAYMENT_SWEEP_SECONDS: '3600' }, crash.port);
    const reopened = await crash.buyer.post('/api/create-payment-intent', {
      bookingId: crash.bookingId,
    });
    if (reopened.status === 200) {
      // What the page would do next: take the card again.
      const { clientSecret } = (await reopened.json()) as { clientSecret: string };
      await new TestClient(server).post('/api/payments/sandbox/confirm', {
        clientSecret,
        card: TEST_CARD,
      });
      await crash.buyer.post('/api/payments', {
        bookingId: crash.bookingId,
        transactionId: clientSecret.split('_secret_')[0],
      });
    } else {
      expect(reopened.status).toBe(409);
      expect(((await reopened.json()) as { error: { message: string } }).error.message).toMatch(
        /already paid/,
      );
    }
    await expectSoldOnce(crash.bookingId, crash.listingId);
  });
});
