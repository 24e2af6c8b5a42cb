import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MyListingListSchema } from '@carmarket/shared';
import { signInAs, type TestClient } from '../../test/client.ts';
import { waitForMail } from '../../test/mail.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import {
  book,
  bookingOf,
  newSeller,
  paidBooking,
  payFor,
  refundByRuling,
} from '../../test/fixtures.ts';
import { ledgerOf, ledgerSum } from './payouts.test-helpers.ts';

/*
 * Decision 044: an admin's refund ruling undoes the sale. The booking is refunded, the car goes
 * back to its seller, withdrawn; they may put it back on sale and another buyer may buy it.
 */
describe('a refund ruling gives the car back to its seller', () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: { PAYOUT_SWEEP_SECONDS: '3600' } });
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  async function myCar(seller: TestClient, carId: string) {
    const response = await seller.get('/api/my/listings');
    expect(response.status).toBe(200);
    return MyListingListSchema.parse(await response.json()).find((car) => car._id === carId);
  }

  it('withdrawn, relisted by its seller, booked and bought by another buyer', async () => {
    const seller = await newSeller(app);
    const { car, buyer, bookingId } = await paidBooking(app, { seller });
    expect((await myCar(seller, car.id))?.status).toBe('sold');
    // A sold car cannot be put back on sale: its relist is refused while the sale stands.
    expect((await seller.post(`/api/listings/${car.id}/relist`)).status).toBe(409);

    await refundByRuling(buyer, admin, bookingId);

    // The booking is refunded (its payment's record kept), the car back with its seller.
    const refunded = await bookingOf(buyer, bookingId);
    expect(refunded).toMatchObject({
      status: 'refunded',
      paid: false,
      handover: { state: 'refunded' },
    });
    expect(refunded.paidAt).not.toBeNull();
    expect(refunded.transactionId).not.toBeNull();
    expect((await bookingOf(seller, bookingId)).status).toBe('refunded');
    expect((await buyer.get(`/api/booked/${bookingId}/receipt`)).status).toBe(200);
    expect((await myCar(seller, car.id))?.status).toBe('withdrawn');
    // Not on sale until its seller says so: nobody can book it meanwhile.
    const early = await book(app, car.id);
    expect(early.bookingId).toBeUndefined();

    // Both sides are told by mail.
    expect((await waitForMail(app, seller.account.email, /^Payment refunded/)).text).toContain(
      '/dashboard/my-products',
    );
    expect((await waitForMail(app, buyer.account.email, /^Refunded:/)).text).toContain(
      'went back to its seller',
    );

    // The seller puts it back on sale; a new buyer books it and pays.
    expect((await seller.post(`/api/listings/${car.id}/relist`)).status).toBe(200);
    expect((await myCar(seller, car.id))?.status).toBe('available');
    const next = await book(app, car.id);
    expect(next.bookingId).toEqual(expect.any(String));
    await payFor(next, next.bookingId);
    expect(await bookingOf(next, next.bookingId)).toMatchObject({
      status: 'paid',
      paid: true,
      handover: { state: 'awaiting-handover' },
    });
    expect((await myCar(seller, car.id))?.status).toBe('sold');
    // The first buyer's booking stays refunded; each booking has its own money, summing to zero.
    expect((await bookingOf(buyer, bookingId)).status).toBe('refunded');
    expect((await ledgerOf(app, next.bookingId)).map((entry) => entry.movement)).toEqual([
      'charge',
      'charge',
    ]);
    expect(await ledgerSum(app)).toBe(0);
  });

  it('a released ruling leaves the car sold', async () => {
    const seller = await newSeller(app);
    const { car, buyer, bookingId } = await paidBooking(app, { seller });
    const reported = await buyer.post(`/api/booked/${bookingId}/dispute`, {
      reason: 'The car has scratches the photos did not show.',
    });
    const { handover } = (await reported.json()) as { handover: { disputeId: string } };
    const ruled = await admin.post(`/api/disputes/${handover.disputeId}/resolve`, {
      outcome: 'release',
      note: 'The scratches were in the description.',
    });
    expect(ruled.status).toBe(200);
    expect((await bookingOf(buyer, bookingId)).status).toBe('paid');
    expect((await myCar(seller, car.id))?.status).toBe('sold');
    expect((await seller.post(`/api/listings/${car.id}/relist`)).status).toBe(409);
    expect(await ledgerSum(app)).toBe(0);
  });
});
