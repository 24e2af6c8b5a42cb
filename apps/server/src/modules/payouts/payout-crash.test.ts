import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Balance } from '@carmarket/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../test/client.ts';
import { startChildServer, type ChildServer } from '../../test/child-server.ts';
import {
  payWithFakeStripe,
  startFakeStripe,
  stripeTestEnv,
  type FakeStripe,
} from '../../test/fake-stripe.ts';
import { createTestDatabase } from '../../test/test-app.ts';

/**
 * kill -9 while a payout's transfer is at Stripe (made there, not yet answered), then a restart
 * on the same PostgreSQL database: the restarted server's sweep asks again with the same key,
 * and the seller is paid once. PostgreSQL only, as the payments' crash test: a killed process
 * must not be the only one holding the database. Two server processes start, up to 20 s each on
 * a busy machine: it has longer than the default.
 */
const onPostgreSQL = describe.skipIf(!process.env.TEST_DATABASE_URL);
onPostgreSQL('a crash while a payout is at the provider', { timeout: 120_000 }, () => {
  let databaseUrl: string;
  let dataDir: string;
  let sql: pg.Client;
  let stripeApi: FakeStripe;
  const running: ChildServer[] = [];
  beforeAll(async () => {
    stripeApi = await startFakeStripe();
    databaseUrl = (await createTestDatabase())!;
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-payout-crash-'));
    sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
  });
  afterAll(async () => {
    await Promise.all(running.map((server) => server.stop()));
    await sql.end().catch(() => {});
    await stripeApi.close();
  });

  async function start(env: Record<string, string>, port?: number) {
    const server = await startChildServer(
      {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        WEB_DIST_DIR: dataDir,
        ...stripeTestEnv(stripeApi),
        ...env,
      },
      port,
    );
    running.push(server);
    return server;
  }

  /**
   * A seller with a ready account is paid at hand-over; the server is killed while Stripe holds
   * the transfer's answer (`beforeMaking`: before Stripe made it), and started again.
   */
  async function crashMidTransfer({ beforeMaking }: { beforeMaking: boolean }) {
    // No sweep runs in the first process: only the hand-over sends the payout.
    const first = await start({ PAYOUT_SWEEP_SECONDS: '3600' });
    const seller = await register(first, { role: 'Seller' });
    expect((await seller.post('/api/my/payout-account')).status).toBe(200);
    const accountId = [...stripeApi.accounts.keys()].at(-1)!;
    stripeApi.setPayoutsEnabled(accountId, true);
    // A minute on (the page asks Stripe at most once a minute): the account is ready.
    await sql.query(
      `update payout_account set updated_at = now() - interval '1 hour' where account_id = $1`,
      [accountId],
    );
    expect(await (await seller.get('/api/my/payout-account')).json()).toMatchObject({
      status: 'ready',
    });

    // 5 % of $18,000.01 is $900.0005, rounded up to $900.01: the share is $17,100.00.
    const { buyer, bookingId } = await payWithFakeStripe(first, stripeApi, {
      seller,
      repriceCents: 1_800_001,
    });

    // The hand-over sends the payout; Stripe makes the transfer and its answer never comes.
    const arrived = stripeApi.stallTransfers({ beforeMaking });
    const handover = buyer.post(`/api/booked/${bookingId}/handover`).catch(() => undefined);
    const request = await arrived;
    expect(request.idempotencyKey).toBe(`payout-${bookingId}`);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await handover;
    stripeApi.resumeTransfers();

    const payoutRows = () =>
      sql.query<{ status: string; transfer_id: string | null; amount_cents: string }>(
        'select status, transfer_id, amount_cents from payout where booking_id = $1',
        [bookingId],
      );
    expect((await payoutRows()).rows).toEqual([
      { status: 'sending', transfer_id: null, amount_cents: '1710000' },
    ]);
    // Time moved, not waited: the dead process's claim on the payout has run out.
    await sql.query(
      `update payout set updated_at = now() - interval '1 hour' where booking_id = $1`,
      [bookingId],
    );

    await start({ PAYOUT_SWEEP_SECONDS: '1' }, first.port);
    await expect
      .poll(async () => (await payoutRows()).rows[0]?.status, { timeout: 30_000, interval: 200 })
      .toBe('paid');

    const made = stripeApi.transfers.filter(
      (transfer) => transfer.idempotencyKey === `payout-${bookingId}`,
    );
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ amount: 1_710_000, destination: accountId });
    // Asked again after the restart: the transfer Stripe made is found (by its group, or its
    // key's answer), the one it never made is made.
    const asked = stripeApi.requests.filter(
      (r) =>
        r.path === '/v1/transfers' &&
        (r.idempotencyKey === `payout-${bookingId}` ||
          r.query.get('transfer_group') === `booking_${bookingId}`),
    );
    expect(asked.length).toBeGreaterThanOrEqual(beforeMaking ? 3 : 2);
    expect((await payoutRows()).rows).toEqual([
      { status: 'paid', transfer_id: made[0]!.id, amount_cents: '1710000' },
    ]);
    const ledger = await sql.query<{ movement: string; total: string; entries: string }>(
      `select movement, sum(amount_cents)::text as total, count(*)::text as entries
       from ledger_entry where booking_id = $1 group by movement order by movement`,
      [bookingId],
    );
    expect(ledger.rows).toEqual([
      { movement: 'charge', total: '0', entries: '2' },
      { movement: 'payout', total: '0', entries: '2' },
      { movement: 'release', total: '0', entries: '3' },
    ]);
    const [all] = (
      await sql.query<{ total: string }>(
        'select coalesce(sum(amount_cents), 0)::text as total from ledger_entry',
      )
    ).rows;
    expect(all!.total).toBe('0');
    expect((await (await seller.get('/api/my/balance')).json()) as Balance).toEqual({
      pending: 0,
      payable: 0,
      paidOut: 1_710_000,
      currency: 'USD',
    });
    await Promise.all(running.splice(0).map((server) => server.stop()));
  }

  it('pays the seller once after the server died waiting for the transfer Stripe made', () =>
    crashMidTransfer({ beforeMaking: false }));

  it('pays the seller once after the server died before Stripe made the transfer', () =>
    crashMidTransfer({ beforeMaking: true }));
});
