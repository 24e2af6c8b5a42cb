import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxEvent } from '../../db/schema.ts';
import type { SandboxGateway } from '../../adapters/sandbox-gateway.ts';
import { register } from '../../test/client.ts';
import { newCar, payFor, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/*
 * Closing the server (a test's app, or SIGTERM in production) waits for the work it runs besides
 * requests before its database pool ends (decision 022). Each test holds one piece of background
 * work in flight at the gateway's edge, closes the app, and looks at what the pool's end saw. A
 * query on the ended pool would reject unhandled, which fails the run (Vitest reports it).
 */

/** How long held work waits for the pool to end before it carries on (the fix never ends it). */
const HOLD_MS = 300;

/**
 * Runs `probe` as the app asks its database to end (the pool still answers then): `ended`
 * resolves right after, as the pool ends, and `seen()` answers what the probe found.
 */
function watchPoolEnd<T>(app: TestApp, probe: () => Promise<T>) {
  const database = app.database;
  const end = database.close.bind(database);
  let seen: { value: T } | undefined;
  let markEnded = () => {};
  const ended = new Promise<void>((resolve) => (markEnded = resolve));
  database.close = async () => {
    seen = { value: await probe() };
    markEnded();
    return end();
  };
  return { ended, seen: () => seen };
}

/** A step where work is held until the pool ends or HOLD_MS pass; `started` once one is held. */
function holdPoint() {
  let held = 0;
  let markStarted = () => {};
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  return {
    started,
    /** How many pieces of work are held now. */
    held: () => held,
    async hold(poolEnded: Promise<void>) {
      held += 1;
      markStarted();
      await Promise.race([poolEnded, sleep(HOLD_MS)]);
      held -= 1;
    },
  };
}

/** A buyer's booking of a car of its own. */
async function bookedCar(app: TestApp) {
  const car = await newCar(app);
  const buyer = await register(app);
  const response = await buyer.post('/api/category', validBooking(car.id));
  expect(response.status).toBe(200);
  const { insertedId } = (await response.json()) as { insertedId: string };
  return { buyer, bookingId: insertedId };
}

describe("closing the server during a card payment's event delivery", () => {
  let app: TestApp;
  // Started outside the test's time limit, which a loaded machine's start-up would eat; closing
  // again after the test's own close does nothing.
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('waits for the delivery before the database closes', async () => {
    const gateway = app.payments.deps.gateway as SandboxGateway;
    const succeeded = () =>
      app.database.db
        .select({ deliveredAt: sandboxEvent.deliveredAt })
        .from(sandboxEvent)
        .where(eq(sandboxEvent.type, 'payment_intent.succeeded'));
    const point = holdPoint();
    const pool = watchPoolEnd(app, async () => ({ events: await succeeded(), held: point.held() }));
    // The webhook has taken the event; the sandbox has yet to mark it delivered.
    const webhook = gateway.onEvent!;
    gateway.onEvent = async (payload, signature) => {
      const taken = await webhook(payload, signature);
      await point.hold(pool.ended);
      return taken;
    };

    const { buyer, bookingId } = await bookedCar(app);
    await payFor(buyer, bookingId);
    await point.started;
    expect(point.held()).toBe(1);
    await app.close();

    const seen = pool.seen()!.value;
    expect(seen.held).toBe(0);
    expect(seen.events).toHaveLength(1);
    expect(seen.events[0]!.deliveredAt).toBeInstanceOf(Date);
  });
});

describe('closing the server during a timed payment sweep', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { PAYMENT_SWEEP_SECONDS: '1' } });
  });
  afterAll(() => app.close());

  it('waits for the sweep before the database closes', async () => {
    const gateway = app.payments.deps.gateway as SandboxGateway;
    const point = holdPoint();
    const pool = watchPoolEnd(app, async () => ({ held: point.held() }));
    // Each timed sweep redelivers the sandbox's due events first, then settles payments.
    const redeliver = gateway.redeliver.bind(gateway);
    gateway.redeliver = async () => {
      const delivered = await redeliver();
      await point.hold(pool.ended);
      return delivered;
    };

    await point.started;
    expect(point.held()).toBe(1);
    await app.close();

    expect(pool.seen()!.value.held).toBe(0);
  });
});
