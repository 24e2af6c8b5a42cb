import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listing, message } from '../../db/schema.ts';
import { linkIn, waitForMail } from '../../test/mail.ts';
import { codeOf, errorOf, register, signInAs } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { env, freshCar, ask, send } from './messages.test-helpers.ts';

describe('sending limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        ...env,
        MESSAGE_LIMIT_PER_MINUTE: '4',
        MESSAGE_LIMIT_PER_DAY: '1000',
        CONVERSATION_LIMIT_PER_DAY: '2',
      },
    });
  });
  afterAll(() => app.close());

  it('answers 429 with Retry-After past the messages a minute, per person', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app));
    for (let i = 0; i < 3; i += 1) expect((await send(buyer, id, `More ${i}`)).status).toBe(200);
    const refused = await send(buyer, id, 'One too many');
    expect(refused.status).toBe(429);
    expect(await codeOf(refused)).toBe('too-many-requests');
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    // The seller is counted on their own.
    const seller = await signInAs(app, 'seller@demo.local');
    expect((await send(seller, id, 'Hello')).status).toBe(200);
    // Refused messages were not stored.
    const lines = await app.database.db
      .select()
      .from(message)
      .where(eq(message.conversationId, id));
    expect(lines).toHaveLength(5);
  });

  it('counts only the messages it accepts: refused ones (blocked, closed, invalid) cost nothing', async () => {
    const buyer = await register(app);
    const seller = await signInAs(app, 'seller@demo.local');
    const car = await freshCar(app);
    const { conversationId: id } = await ask(buyer, car);
    await seller.request(`/api/conversations/${id}/block`, { method: 'PUT' });
    for (let i = 0; i < 4; i += 1) expect((await send(buyer, id, `Blocked ${i}`)).status).toBe(403);
    for (let i = 0; i < 4; i += 1) expect((await send(buyer, id, '')).status).toBe(400);
    await seller.request(`/api/conversations/${id}/block`, { method: 'DELETE' });
    // The minute's four: the first message and three more.
    for (let i = 0; i < 3; i += 1) expect((await send(buyer, id, `Open ${i}`)).status).toBe(200);
    expect((await send(buyer, id, 'Fifth')).status).toBe(429);

    const other = await register(app);
    const sold = await freshCar(app);
    const { conversationId: closed } = await ask(other, sold);
    await app.database.db.update(listing).set({ status: 'sold' }).where(eq(listing.id, sold));
    for (let i = 0; i < 4; i += 1)
      expect((await send(other, closed, `Sold ${i}`)).status).toBe(409);
    await app.database.db.update(listing).set({ status: 'available' }).where(eq(listing.id, sold));
    for (let i = 0; i < 3; i += 1)
      expect((await send(other, closed, `Again ${i}`)).status).toBe(200);
  });

  it('limits the new conversations a buyer starts a day, not the ones they have', async () => {
    const buyer = await register(app);
    const first = await ask(buyer, await freshCar(app));
    await ask(buyer, await freshCar(app));
    const third = await buyer.post(`/api/listings/${await freshCar(app)}/messages`, { body: 'Hi' });
    expect(third.status).toBe(429);
    expect((await errorOf(third)).message).toContain('2 new cars a day');
    expect(third.headers.get('retry-after')).toBeTruthy();
    // The refused one counted against nothing: two more fit in the minute's four.
    expect((await send(buyer, first.conversationId, 'Still fine here')).status).toBe(200);
    expect((await send(buyer, first.conversationId, 'And here')).status).toBe(200);
  });
});

describe('the daily sending limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { ...env, MESSAGE_LIMIT_PER_DAY: '3' } });
  });
  afterAll(() => app.close());

  it('answers 429 past the messages a day, until the window ends', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app));
    await send(buyer, id, 'Two');
    await send(buyer, id, 'Three');
    const refused = await send(buyer, id, 'Four');
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toContain('3 messages today');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
  });
});

describe('new conversations of an account whose address is not confirmed', () => {
  let app: TestApp;
  beforeAll(async () => {
    // The default figures: 20 new conversations a day, 3 until the address is confirmed.
    app = await startTestApp({ env });
  });
  afterAll(() => app.close());

  it('starts 3 a day until the address is confirmed, which lifts the limit at once', async () => {
    const buyer = await register(app);
    for (let i = 0; i < 3; i += 1) await ask(buyer, await freshCar(app));
    const car = await freshCar(app);
    const refused = await buyer.post(`/api/listings/${car}/messages`, { body: 'Hi' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    const { message: sentence } = await errorOf(refused);
    expect(sentence).toContain('3 new cars a day until you confirm your email address');
    expect(sentence).toContain('up to 20');

    // The confirmation link every sign-up mails, opened in the buyer's browser.
    const mail = await waitForMail(app, buyer.account.email, /Confirm your CarMarket email/);
    const link = linkIn(mail);
    expect((await buyer.get(link.pathname + link.search)).status).toBe(302);
    await ask(buyer, car);
  });
});
