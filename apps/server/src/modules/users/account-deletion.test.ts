import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuditListSchema,
  BookedItemListSchema,
  BookingListSchema,
  ReceiptSchema,
} from '@carmarket/shared';
import { account, booking, listing, user } from '../../db/schema.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { newCar, payFor, validBooking } from '../../test/fixtures.ts';
import { linkIn, mailsTo, waitForMail } from '../../test/mail.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

type Person = TestClient & { account: { email: string; password: string; name: string } };

async function idOf(app: TestApp, email: string) {
  const [row] = await app.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, email));
  return row!.id;
}

/** A bearer token for the client's session, as the web app keeps one. */
async function bearerOf(client: Person) {
  const answer = await client.get(`/api/jwt?email=${encodeURIComponent(client.account.email)}`);
  const bearer = new TestClient(client.app);
  bearer.bearer = ((await answer.json()) as { accessToken: string }).accessToken;
  return bearer;
}

/** Books a car for the buyer; answers the booking's id. */
async function book(buyer: TestClient, carId: string): Promise<string> {
  const response = await buyer.post('/api/category', validBooking(carId));
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { insertedId: string }).insertedId;
}

const signIn = (app: TestApp, email: string, password: string) =>
  new TestClient(app).post('/api/auth/sign-in/email', { email, password });

describe('deleting my own account', () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  it('refuses a wrong password and changes nothing', async () => {
    const buyer = (await register(app)) as Person;
    const bookingId = await book(buyer, (await newCar(app)).id);
    const response = await buyer.post('/api/auth/delete-user', { password: 'not my password' });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'wrong-password', field: 'password' });
    const [kept] = await app.database.db.select().from(booking).where(eq(booking.id, bookingId));
    expect(kept?.status).toBe('pending');
    expect((await buyer.get(`/api/booked/${bookingId}`)).status).toBe(200);
    const [row] = await app.database.db
      .select()
      .from(user)
      .where(eq(user.email, buyer.account.email));
    expect(row?.deletedAt).toBeNull();
  });

  it('asks an account with a password for it', async () => {
    const buyer = await register(app);
    const response = await buyer.post('/api/auth/delete-user', {});
    expect(response.status).toBe(400);
    expect((await errorOf(response)).field).toBe('password');
    expect((await buyer.get(`/api/user/buyer/${buyer.account.email}`)).status).toBe(200);
  });

  it('a buyer\'s account goes: sessions and tokens stop, bookings are cancelled and holds freed, paid records stay for the seller as "Deleted user"', async () => {
    const buyer = (await register(app, { name: 'Gone Buyer' })) as Person;
    const [open, held, bought] = [await newCar(app), await newCar(app), await newCar(app)];
    const openBooking = await book(buyer, open.id);
    const heldBooking = await book(buyer, held.id);
    await buyer.post('/api/create-payment-intent', { bookingId: heldBooking });
    const hold = await buyer.post('/api/payments/hold', { bookingId: heldBooking });
    expect(hold.status, await hold.clone().text()).toBe(200);
    const paidBooking = await book(buyer, bought.id);
    await payFor(buyer, paidBooking);
    const [reserved] = await app.database.db.select().from(listing).where(eq(listing.id, held.id));
    expect(reserved?.status).toBe('reserved');

    const laptop = (await signInAs(app, buyer.account.email, buyer.account.password)) as Person;
    laptop.account = buyer.account;
    const token = await bearerOf(laptop);

    const response = await buyer.post('/api/auth/delete-user', {
      password: buyer.account.password,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: true, message: 'User deleted' });
    expect(buyer.hasSession()).toBe(false);

    // Every session and token of the account stops at once.
    const me = `/api/user/buyer/${buyer.account.email}`;
    expect((await laptop.get(me)).status).toBe(401);
    expect((await token.get(me)).status).toBe(401);

    // Signing in answers exactly as a wrong password does.
    const rightPassword = await signIn(app, buyer.account.email, buyer.account.password);
    const wrongPassword = await signIn(app, buyer.account.email, 'not the password at all');
    expect(rightPassword.status).toBe(401);
    expect(await rightPassword.json()).toEqual(await wrongPassword.json());

    // Open bookings are cancelled; the car held at checkout is free again.
    const rows = await app.database.db
      .select()
      .from(booking)
      .where(eq(booking.buyerId, await idOf(app, buyer.account.email)));
    const statusOf = (id: string) => rows.find((row) => row.id === id)?.status;
    expect(statusOf(openBooking)).toBe('cancelled');
    expect(statusOf(heldBooking)).toBe('cancelled');
    expect(statusOf(paidBooking)).toBe('paid');
    const [freed] = await app.database.db.select().from(listing).where(eq(listing.id, held.id));
    expect(freed).toMatchObject({ status: 'available', holdBookingId: null });

    // The seller keeps the paid record, without the buyer in it.
    const seller = await signInAs(app, 'seller@demo.local');
    const items = BookedItemListSchema.parse(await (await seller.get('/api/bookedItem')).json());
    const paidItem = items.find((item) => item._id === paidBooking);
    expect(paidItem).toMatchObject({
      status: 'paid',
      sold: true,
      userName: 'Deleted user',
      userEmail: '',
      userPhone: '',
    });
    expect(JSON.stringify(items)).not.toContain(buyer.account.email);
    expect(JSON.stringify(items)).not.toContain('Gone Buyer');
    // And was told of the bookings that were cancelled.
    const told = (await mailsTo(app, 'seller@demo.local')).filter((m) =>
      m.subject.startsWith('A booking of'),
    );
    expect(told.map((m) => m.subject)).toEqual(
      expect.arrayContaining([`A booking of ${open.name} was cancelled`]),
    );

    // The person is told what happened, and the admin's log says who did it.
    const goodbye = await waitForMail(app, buyer.account.email, /account was deleted/);
    expect(goodbye.text).toContain('Deleted user');
    const log = AuditListSchema.parse(await (await admin.get('/api/audit')).json());
    const entry = log.find(
      (line) => line.action === 'user.delete' && line.targetId === (rows[0]?.buyerId ?? ''),
    );
    expect(entry).toMatchObject({
      details: { self: true, email: buyer.account.email, bookingsCancelled: 2 },
    });
    expect(entry?.actor?._id).toBe(entry?.targetId);

    // Gone from the admin's lists; the address is held for a while.
    const users = (await (await admin.get('/api/all/user?pageSize=100')).json()) as Array<{
      email: string;
    }>;
    expect(users.map((u) => u.email)).not.toContain(buyer.account.email);
    const again = await new TestClient(app).post('/api/auth/sign-up/email', {
      name: 'Again',
      email: buyer.account.email,
      password: 'a fine new password',
    });
    // Answered as a new sign-up (decision 044), but no account is made: the address is held.
    expect(again.status).toBe(200);
    expect(
      await app.database.db
        .select({ id: user.id })
        .from(user)
        .where(eq(user.email, buyer.account.email)),
    ).toHaveLength(1);
    // No password or Google link is kept for the deleted account.
    const links = await app.database.db
      .select()
      .from(account)
      .where(eq(account.userId, await idOf(app, buyer.account.email)));
    expect(links).toEqual([]);
  });

  it('a seller\'s account goes: cars on sale leave the site and their bookings close; buyers of sold cars see "Deleted user"', async () => {
    const seller = (await register(app, { role: 'Seller', name: 'Gone Motors' })) as Person;
    const onSale = (await newCar(app, { seller, name: 'Leaving EV' })).id;
    const sold = (await newCar(app, { seller, name: 'Sold EV' })).id;
    const waiting = await register(app);
    const waitingBooking = await book(waiting, onSale);
    const owner = await register(app);
    const ownerBooking = await book(owner, sold);
    await payFor(owner, ownerBooking);

    const response = await seller.post('/api/auth/delete-user', {
      password: seller.account.password,
    });
    expect(response.status).toBe(200);

    expect((await waiting.get(`/api/listings/${onSale}`)).status).toBe(404);
    const waitingOrders = BookingListSchema.parse(
      await (await waiting.get(`/api/booked?email=${waiting.account.email}`)).json(),
    );
    expect(waitingOrders.find((b) => b._id === waitingBooking)).toMatchObject({
      status: 'closed',
      closedReason: 'seller-deleted',
    });
    await waitForMail(app, waiting.account.email, /Leaving EV is no longer available/);

    // The buyer who paid keeps the record: the car and the receipt, from "Deleted user".
    const ownerOrders = BookingListSchema.parse(
      await (await owner.get(`/api/booked?email=${owner.account.email}`)).json(),
    );
    expect(ownerOrders.find((b) => b._id === ownerBooking)).toMatchObject({
      status: 'paid',
      sellerName: 'Deleted user',
    });
    const receipt = ReceiptSchema.parse(
      await (await owner.get(`/api/booked/${ownerBooking}/receipt`)).json(),
    );
    expect(receipt.sellerName).toBe('Deleted user');
    const [soldCar] = await app.database.db.select().from(listing).where(eq(listing.id, sold));
    expect(soldCar?.status).toBe('sold');
  });

  it('is not for an administrator account', async () => {
    const response = await admin.post('/api/auth/delete-user', { password: 'demo-drive-2026' });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toMatch(/administrator account cannot delete itself/);
    expect((await admin.get('/api/audit')).status).toBe(200);
  });

  it('asks an account without a password (Google only) for a link mailed to it instead', async () => {
    const person = (await register(app)) as Person;
    const stranger = await register(app);
    // An account made by Google sign-in has no password row: made so here.
    await app.database.db
      .delete(account)
      .where(eq(account.userId, await idOf(app, person.account.email)));

    const asked = await person.post('/api/auth/delete-user', {});
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({ success: true, message: 'Verification email sent' });
    expect((await person.get(`/api/user/buyer/${person.account.email}`)).status).toBe(200);
    const tokenOf = async () => {
      const mail = await waitForMail(app, person.account.email, /Confirm deleting/);
      const link = linkIn(mail);
      expect(link.pathname).toBe('/dashboard/settings');
      return link.hash.replace(/^#delete=/, '');
    };
    const first = await tokenOf();
    expect(first).toMatch(/^[a-f0-9]{48}$/);

    // The token is the account's own: another session cannot use it (and it is then used up).
    expect((await stranger.post('/api/auth/delete-user', { token: first })).status).toBe(400);
    expect((await person.post('/api/auth/delete-user', { token: 'abc123' })).status).toBe(400);
    expect((await person.get(`/api/user/buyer/${person.account.email}`)).status).toBe(200);

    // A new link (this mail goes out before the answer: the asker is signed in, nothing to hide).
    await person.post('/api/auth/delete-user', {});
    const second = await tokenOf();
    expect(second).not.toBe(first);
    const done = await person.post('/api/auth/delete-user', { token: second });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ success: true, message: 'User deleted' });
    const [row] = await app.database.db
      .select()
      .from(user)
      .where(eq(user.email, person.account.email));
    expect(row?.deletedAt).not.toBeNull();
    expect((await stranger.get(`/api/user/buyer/${stranger.account.email}`)).status).toBe(200);
  });

  it('does the work once when the person and an admin delete the account at the same time', async () => {
    const buyer = (await register(app)) as Person;
    await book(buyer, (await newCar(app)).id);
    const id = await idOf(app, buyer.account.email);
    const answers = await Promise.all([
      buyer.post('/api/auth/delete-user', { password: buyer.account.password }),
      admin.request(`/api/user/remove/${id}`, { method: 'DELETE' }),
    ]);
    expect(answers.map((a) => a.status).filter((s) => s === 200)).toHaveLength(1);
    for (const answer of answers) expect(answer.status).toBeLessThan(500);
    const log = AuditListSchema.parse(await (await admin.get('/api/audit')).json());
    expect(
      log.filter((line) => line.action === 'user.delete' && line.targetId === id),
    ).toHaveLength(1);
  });
});

describe("an admin's deletion: the same code path", () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  it('has the same effects, and tells the person why sign-in fails (decision 012)', async () => {
    const buyer = (await register(app, { name: 'Removed Buyer' })) as Person;
    const paid = await book(buyer, (await newCar(app)).id);
    await payFor(buyer, paid);
    const open = await book(buyer, (await newCar(app)).id);
    const id = await idOf(app, buyer.account.email);
    expect((await admin.request(`/api/user/remove/${id}`, { method: 'DELETE' })).status).toBe(200);

    const [cancelled] = await app.database.db.select().from(booking).where(eq(booking.id, open));
    expect(cancelled?.status).toBe('cancelled');
    const seller = await signInAs(app, 'seller@demo.local');
    const items = BookedItemListSchema.parse(await (await seller.get('/api/bookedItem')).json());
    expect(items.find((item) => item._id === paid)).toMatchObject({
      userName: 'Deleted user',
      userEmail: '',
    });
    const log = AuditListSchema.parse(await (await admin.get('/api/audit')).json());
    expect(log[0]).toMatchObject({ action: 'user.delete', targetId: id, details: { self: false } });
    // Unlike deleting one's own account, the password still opens the message of what happened.
    const signIn = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: buyer.account.email,
      password: buyer.account.password,
    });
    expect(signIn.status).toBe(403);
    expect((await errorOf(signIn)).code).toBe('user-disabled');
  });
});
