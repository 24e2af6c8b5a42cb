import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Balance, Dispute } from '@carmarket/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client.ts';
import { register, signInAs, type TestClient } from '../../test/client.ts';
import { bookingOf, newCar, payFor, validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { ledgerSum } from './payouts.test-helpers.ts';

/*
 * Issue 35's property (decision 037): any sequence of the money's actions, in any order, repeated
 * and raced, leaves the ledger summing to zero, each movement balanced, and each booking with at
 * most one of payout and refund; what the API answers agrees with a model of the states.
 * `PROPERTY_RUNS` sets the number of sequences (a handful in `npm test`).
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 8);
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : undefined;

/** Each sequence's bookings: 0 and 1 paid, 2 booked and never paid. */
const BOOKINGS = 3;
const PAID = [0, 1];

type Action =
  | { kind: 'handover' | 'dispute' | 'timer' | 'cancel'; booking: number }
  | { kind: 'resolve'; booking: number; outcome: 'release' | 'refund' }
  | { kind: 'sweep' | 'account' };
type Step = { action: Action; twice: boolean };

const booking = fc.integer({ min: 0, max: BOOKINGS - 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constantFrom('handover', 'dispute', 'timer', 'cancel'), booking }),
  fc.record({
    kind: fc.constant('resolve'),
    booking,
    outcome: fc.constantFrom('release', 'refund'),
  }),
  fc.record({ kind: fc.constantFrom('sweep', 'account') }),
) as fc.Arbitrary<Action>;
/** A step is sent once, or twice at the same time (a retried or replayed request). */
const steps = fc.array(fc.record({ action, twice: fc.boolean() }), { minLength: 1, maxLength: 10 });

type ModelState = 'awaiting-handover' | 'disputed' | 'released' | 'refunded';

/** What the states should be after the steps, whatever order the raced pairs ran in. */
function model(sequence: Step[]): { states: Array<ModelState | null>; account: boolean } {
  const states: Array<ModelState | null> = [...Array(BOOKINGS)].map((_, index) =>
    PAID.includes(index) ? 'awaiting-handover' : null,
  );
  let account = false;
  for (const { action } of sequence) {
    if (action.kind === 'account') account = true;
    if (!('booking' in action)) continue;
    const state = states[action.booking];
    if (state === null || state === undefined) continue;
    if (action.kind === 'handover' && state === 'awaiting-handover')
      states[action.booking] = 'released';
    if (action.kind === 'timer' && state === 'awaiting-handover')
      states[action.booking] = 'released';
    if (action.kind === 'dispute' && state === 'awaiting-handover')
      states[action.booking] = 'disputed';
    if (action.kind === 'resolve' && state === 'disputed') {
      states[action.booking] = action.outcome === 'release' ? 'released' : 'refunded';
    }
  }
  return { states, account };
}

describe('the ledger under any sequence of hand-overs, disputes, rulings and payouts', () => {
  let app: TestApp;
  let admin: TestClient;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  /** A seller with three cars, each booked by its own buyer; bookings 0 and 1 paid. */
  async function scene() {
    const seller = await register(app, { role: 'Seller' });
    const bookings: Array<{ buyer: TestClient; id: string }> = [];
    for (let index = 0; index < BOOKINGS; index += 1) {
      // Odd prices, so the fee's rounding is part of every sum.
      const car = await newCar(app, { seller, repriceCents: 1_234_567 + index * 13 });
      const buyer = await register(app);
      const booked = await buyer.post('/api/category', validBooking(car.id));
      expect(booked.status, await booked.clone().text()).toBe(200);
      const { insertedId } = (await booked.json()) as { insertedId: string };
      if (PAID.includes(index)) await payFor(buyer, insertedId);
      bookings.push({ buyer, id: insertedId });
    }
    return { seller, bookings };
  }

  it('sums to zero and pays out or refunds each booking at most once', async () => {
    await fc.assert(
      fc.asyncProperty(steps, async (sequence) => {
        const { seller, bookings } = await scene();

        const run = async (step: Action): Promise<Response | undefined> => {
          if (step.kind === 'sweep') {
            await app.payouts.sweep();
            return undefined;
          }
          if (step.kind === 'account') return seller.post('/api/my/payout-account');
          if (!('booking' in step)) return undefined;
          const { buyer, id } = bookings[step.booking]!;
          switch (step.kind) {
            case 'handover':
              return buyer.post(`/api/booked/${id}/handover`);
            case 'dispute':
              return buyer.post(`/api/booked/${id}/dispute`, {
                reason: 'The seller never turned up at the meeting place.',
              });
            case 'cancel':
              return buyer.post(`/api/booked/${id}/cancel`);
            case 'timer':
              // The days pass: the booking's release falls due, and the sweep runs.
              await app.database.db.execute(
                sql`update settlement set release_due_at = now() - interval '1 second' where booking_id = ${id}`,
              );
              await app.payouts.sweep();
              return undefined;
            case 'resolve': {
              const { handover } = await bookingOf(buyer, id);
              if (!handover?.disputeId) return undefined;
              return admin.post(`/api/disputes/${handover.disputeId}/resolve`, {
                outcome: step.outcome,
                note: 'Decided by the property test.',
              });
            }
          }
        };

        for (const { action, twice } of sequence) {
          const answers = await Promise.all(twice ? [run(action), run(action)] : [run(action)]);
          for (const answer of answers) {
            if (answer) expect(answer.status, await answer.clone().text()).toBeLessThan(500);
          }
        }
        // Whatever was left sending or resolving is finished by the sweep.
        await app.payouts.sweep();

        const expected = model(sequence);
        const ids = bookings.map((each) => each.id);
        const actual = await Promise.all(
          bookings.map(async ({ buyer, id }) => (await bookingOf(buyer, id)).handover),
        );
        expect(actual.map((handover) => handover?.state ?? null)).toEqual(expected.states);

        // Every movement balances, and so the whole ledger.
        const unbalanced = await queryRows<{ booking_id: string; movement: string }>(
          app.database.db,
          sql`select booking_id, movement from ledger_entry group by booking_id, movement having sum(amount_cents) <> 0`,
        );
        expect(unbalanced).toEqual([]);
        expect(await ledgerSum(app)).toBe(0);

        // Each booking: its movements match its state, with at most one of payout and refund.
        const movements = await queryRows<{ booking_id: string; movement: string }>(
          app.database.db,
          sql`select distinct booking_id, movement from ledger_entry where booking_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        );
        const payouts = await queryRows<{ booking_id: string; status: string; n: number }>(
          app.database.db,
          sql`select p.booking_id, p.status, (select count(*)::int from sandbox_transfer t where t.idempotency_key = 'payout-' || p.booking_id::text) as n from payout p where p.booking_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
        );
        bookings.forEach(({ id }, index) => {
          const state = expected.states[index];
          const of = movements.filter((row) => row.booking_id === id).map((row) => row.movement);
          const paidOut = state === 'released' && expected.account;
          const want = {
            null: [],
            'awaiting-handover': ['charge'],
            disputed: ['charge'],
            released: paidOut ? ['charge', 'payout', 'release'] : ['charge', 'release'],
            refunded: ['charge', 'refund'],
          }[state ?? 'null'];
          expect(of.sort(), `booking ${index} (${state})`).toEqual(want);
          const payout = payouts.filter((row) => row.booking_id === id);
          expect(payout.map((row) => [row.status, row.n])).toEqual(paidOut ? [['paid', 1]] : []);
        });

        // The seller's balance is what the ledger says.
        const balance = (await (await seller.get('/api/my/balance')).json()) as Balance;
        const shares = actual.map((handover) => handover?.sellerCents ?? 0);
        const sum = (states: ModelState[]) =>
          shares.reduce(
            (total, share, index) =>
              states.includes(expected.states[index] as ModelState) ? total + share : total,
            0,
          );
        expect(balance.pending).toBe(sum(['awaiting-handover', 'disputed']));
        expect(balance.paidOut + balance.payable).toBe(sum(['released']));
        expect(balance.paidOut).toBe(expected.account ? sum(['released']) : 0);

        // No dispute is left half-done.
        const open = (await (await admin.get('/api/disputes?status=resolving')).json()) as {
          items: Dispute[];
        };
        expect(open.items.filter((each) => ids.includes(each.bookingId))).toEqual([]);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
