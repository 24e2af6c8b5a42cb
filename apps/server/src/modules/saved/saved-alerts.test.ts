import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SavedCarListSchema, SavedSearchListSchema } from '@carmarket/shared';
import { mailQueue, savedCar, savedSearch, user } from '../../db/schema.ts';
import { codeOf, register, signInAs, TestClient } from '../../test/client.ts';
import { payFor, validBooking } from '../../test/fixtures.ts';
import { startSmtpStandIn } from '../../test/smtp.ts';
import type { TestApp } from '../../test/test-app.ts';
import {
  put,
  del,
  patch,
  listCar,
  saveSearch,
  buyerWithMail,
  mailTo,
  unsubscribeLink,
  startWithSeller,
  env,
} from './saved.test-helpers.ts';
import { startTwoServers } from '../../test/two-servers.ts';

describe('alerts', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    ({ app, seller } = await startWithSeller());
  });
  afterAll(() => app.close());

  it('sends one instant alert per saved search with the new cars, once, and counts them as new', async () => {
    const buyer = await buyerWithMail(app);
    const id = await saveSearch(buyer, 'Mazda MX-5', 'make=Mazda&model=MX-5');
    await saveSearch(buyer, 'Quiet search', 'make=Mazda', 'off');
    const first = await listCar(seller, {
      name: 'Mazda MX-5 RF',
      make: 'Mazda',
      model: 'MX-5',
      reprice: 21_000_00,
      year: 2019,
    });
    const second = await listCar(seller, {
      name: 'Mazda MX-5 ND',
      make: 'Mazda',
      model: 'MX-5',
      reprice: 19_000_00,
      year: 2017,
    });
    await listCar(seller, {
      name: 'Mazda CX-5',
      make: 'Mazda',
      model: 'CX-5',
      reprice: 19_000_00,
      year: 2017,
    });
    await app.runAlerts();
    await app.runAlerts();
    const mail = await mailTo(app, buyer.account.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('2 new cars match "Mazda MX-5"');
    expect(mail[0]!.text).toContain(`/listing/${first}`);
    expect(mail[0]!.text).toContain(`/listing/${second}`);
    expect(mail[0]!.text).not.toContain('CX-5 ');
    expect(mail[0]!.headers?.['List-Unsubscribe']).toMatch(
      /^<http.+\/api\/unsubscribe\?token=.+>$/,
    );
    expect(mail[0]!.headers?.['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    const list = SavedSearchListSchema.parse(await (await buyer.get('/api/saved-searches')).json());
    expect(list.find((s) => s._id === id)).toMatchObject({ newSinceVisit: 2, matching: 2 });
    expect(list.find((s) => s.name === 'Quiet search')).toMatchObject({ newSinceVisit: 3 });
    await patch(buyer, `/api/saved-searches/${id}`, { visited: true });
    const after = SavedSearchListSchema.parse(
      await (await buyer.get('/api/saved-searches')).json(),
    );
    expect(after.find((s) => s._id === id)).toMatchObject({ newSinceVisit: 0, matching: 2 });
  });

  it('groups a day of matches into one digest', async () => {
    const buyer = await buyerWithMail(app);
    const id = await saveSearch(buyer, 'Daily Skodas', 'make=Skoda', 'daily');
    await listCar(seller, {
      name: 'Skoda Octavia',
      make: 'Skoda',
      model: 'Octavia',
      reprice: 11_000_00,
      year: 2016,
    });
    await listCar(seller, {
      name: 'Skoda Fabia',
      make: 'Skoda',
      model: 'Fabia',
      reprice: 6_000_00,
      year: 2014,
    });
    await app.runAlerts();
    // Not a day yet since it was saved: nothing.
    expect(await mailTo(app, buyer.account.email)).toHaveLength(0);
    await app.database.db
      .update(savedSearch)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(savedSearch.id, id));
    await app.runAlerts();
    await app.runAlerts();
    const mail = await mailTo(app, buyer.account.email);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('Your daily cars for "Daily Skodas": 2 new');
    expect(mail[0]!.text).toMatch(/Skoda Octavia[\s\S]*Skoda Fabia/);
  });

  it('tells the people who saved a car of a price drop and of its sale, and nobody else', async () => {
    const saver = await buyerWithMail(app);
    const bystander = await buyerWithMail(app);
    const carId = await listCar(seller, {
      name: 'Volvo V60',
      make: 'Volvo',
      model: 'V60',
      reprice: 8_000_00,
      year: 2012,
    });
    await put(saver, `/api/saved-cars/${carId}`);
    await app.runAlerts();
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_000_00 });
    await app.runAlerts();
    expect(await mailTo(app, saver.account.email)).toHaveLength(0);
    await patch(seller, `/api/listings/${carId}`, { reprice: 7_500_00 });
    await app.runAlerts();
    let mail = await mailTo(app, saver.account.email);
    expect(mail.map((m) => m.subject)).toEqual(['Price drop: Volvo V60']);
    expect(mail[0]!.text).toContain('$7,500');
    expect(mail[0]!.text).toContain('$9,000');

    const payer = await buyerWithMail(app);
    const booked = (await (await payer.post('/api/category', validBooking(carId))).json()) as {
      insertedId: string;
    };
    await payFor(payer, booked.insertedId);
    await app.runAlerts();
    mail = await mailTo(app, saver.account.email);
    expect(mail.map((m) => m.subject)).toEqual(['Price drop: Volvo V60', 'Sold: Volvo V60']);
    expect(await mailTo(app, bystander.account.email)).toHaveLength(0);
    expect(
      (await mailTo(app, payer.account.email)).filter((m) => /Price drop|^Sold/.test(m.subject)),
    ).toHaveLength(0);
  });

  it('tells of a price drop once, however often the seller moves the price', async () => {
    const saver = await buyerWithMail(app);
    const carId = await listCar(seller, {
      name: 'Kia Ceed',
      make: 'Kia',
      model: 'Ceed',
      reprice: 10_000_00,
      year: 2017,
    });
    await put(saver, `/api/saved-cars/${carId}`);
    const drops = async () =>
      (await mailTo(app, saver.account.email)).filter((m) => m.subject.startsWith('Price drop'));
    // Down and back up before the worker ran: nothing to tell.
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_000_00 });
    await patch(seller, `/api/listings/${carId}`, { reprice: 10_000_00 });
    await app.runAlerts();
    expect(await drops()).toHaveLength(0);
    // Two drops before the worker ran: one mail, from the first price to the last.
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_500_00 });
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_000_00 });
    await app.runAlerts();
    expect((await drops()).map((m) => /costs (\S+) \(was (\S+)\)/.exec(m.text)?.slice(1))).toEqual([
      ['$9,000', '$10,000'],
    ]);
    // Up and down again to a price already told of: no news.
    await patch(seller, `/api/listings/${carId}`, { reprice: 10_000_00 });
    await app.runAlerts();
    await patch(seller, `/api/listings/${carId}`, { reprice: 9_000_00 });
    await app.runAlerts();
    expect(await drops()).toHaveLength(1);
    // Lower than ever: news.
    await patch(seller, `/api/listings/${carId}`, { reprice: 8_500_00 });
    await app.runAlerts();
    expect(await drops()).toHaveLength(2);
  });

  it('unsubscribes from the link without a session, and refuses a forged link', async () => {
    const buyer = await buyerWithMail(app);
    const id = await saveSearch(buyer, 'Hondas', 'make=Honda');
    await listCar(seller, {
      name: 'Honda Civic',
      make: 'Honda',
      model: 'Civic',
      reprice: 10_000_00,
      year: 2015,
    });
    await app.runAlerts();
    const [mail] = await mailTo(app, buyer.account.email);
    const token = unsubscribeLink(mail!);

    // Forged: another search's id with this signature, or this id with a changed signature.
    const other = await saveSearch(buyer, 'Other', 'make=Honda&model=Jazz');
    const [, , signature] = token.split('.');
    for (const forged of [
      `s.${other}.${signature}`,
      `${token.slice(0, -2)}xx`,
      'c.' + token.slice(2),
    ]) {
      const refused = await new TestClient(app).post(`/api/unsubscribe?token=${forged}`);
      expect(refused.status, forged).toBe(400);
      expect(await codeOf(refused)).toBe('invalid-action-code');
    }

    // What a mail program sends for List-Unsubscribe-Post: a form body, no cookie, no Origin.
    const oneClick = await fetch(`${app.baseUrl}/api/unsubscribe?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toEqual({
      unsubscribed: true,
      what: 'alerts for your saved search "Hondas"',
    });
    const list = SavedSearchListSchema.parse(await (await buyer.get('/api/saved-searches')).json());
    expect(list.find((s) => s._id === id)?.alerts).toBe('off');
    expect(list.find((s) => s._id === other)?.alerts).toBe('instant');

    await listCar(seller, {
      name: 'Honda Accord',
      make: 'Honda',
      model: 'Accord',
      reprice: 12_000_00,
      year: 2016,
    });
    await app.runAlerts();
    expect(
      (await mailTo(app, buyer.account.email)).filter((m) => m.subject.includes('"Hondas"')),
    ).toHaveLength(1);
  });

  it('stops saved-car mail from its link, and forgets a deleted buyer and a removed car', async () => {
    const buyer = await buyerWithMail(app);
    const carId = await listCar(seller, {
      name: 'Fiat Panda',
      make: 'Fiat',
      model: 'Panda',
      reprice: 5_000_00,
      year: 2015,
    });
    const otherCar = await listCar(seller, {
      name: 'Fiat 500',
      make: 'Fiat',
      model: '500',
      reprice: 6_000_00,
      year: 2016,
    });
    await put(buyer, `/api/saved-cars/${carId}`);
    await put(buyer, `/api/saved-cars/${otherCar}`);
    await patch(seller, `/api/listings/${carId}`, { reprice: 4_500_00 });
    await app.runAlerts();
    const [mail] = await mailTo(app, buyer.account.email);
    expect(mail!.subject).toBe('Price drop: Fiat Panda');
    const stopped = await new TestClient(app).post(
      `/api/unsubscribe?token=${unsubscribeLink(mail!)}`,
    );
    expect(await stopped.json()).toEqual({
      unsubscribed: true,
      what: 'mail about your saved cars',
    });
    await patch(seller, `/api/listings/${otherCar}`, { reprice: 5_500_00 });
    await app.runAlerts();
    expect(await mailTo(app, buyer.account.email)).toHaveLength(1);

    // An admin removes one car: it leaves the buyer's saved cars.
    const admin = await signInAs(app, 'admin@demo.local');
    expect((await admin.post(`/api/listings/${carId}/remove`, {})).status).toBe(200);
    const saved = SavedCarListSchema.parse(await (await buyer.get('/api/saved-cars')).json());
    expect(saved.map((s) => s.listingId)).toEqual([otherCar]);

    // A deleted buyer's saves go with the account; no mail follows.
    const deleted = await buyerWithMail(app);
    await put(deleted, `/api/saved-cars/${otherCar}`);
    await saveSearch(deleted, 'Fiats', 'make=Fiat');
    const [person] = await app.database.db
      .select()
      .from(user)
      .where(eq(user.email, deleted.account.email));
    expect((await del(admin, `/api/user/remove/${person!.id}`)).status).toBe(200);
    const left = await app.database.db
      .select()
      .from(savedCar)
      .where(and(eq(savedCar.userId, person!.id)));
    expect(left).toHaveLength(0);
    expect(
      await app.database.db.select().from(savedSearch).where(eq(savedSearch.userId, person!.id)),
    ).toHaveLength(0);
    await listCar(seller, {
      name: 'Fiat Tipo',
      make: 'Fiat',
      model: 'Tipo',
      reprice: 7_000_00,
      year: 2018,
    });
    await patch(seller, `/api/listings/${otherCar}`, { reprice: 5_000_00 });
    await app.runAlerts();
    expect(await mailTo(app, deleted.account.email)).toHaveLength(0);
  });
});

/** Two servers on one PostgreSQL database, both running the worker at the same moment. */

describe('alert mail through a mail server', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpStandIn>>;
  let seller: TestClient;
  let busyRefuses = true;
  beforeAll(async () => {
    smtp = await startSmtpStandIn((to) => {
      if (to.startsWith('gone-')) return { code: 550, message: 'No such mailbox here' };
      if (to.startsWith('busy-') && busyRefuses) return { code: 451, message: 'Try later' };
      return 'accept';
    });
    ({ app, seller } = await startWithSeller({ SMTP_URL: smtp.url }));
  });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });

  it('sends the other alerts when a mailbox refuses, tries a busy one later, and sends none twice', async () => {
    const stamp = Date.now();
    const gone = await register(app, { email: `gone-${stamp}@example.com` });
    const busy = await register(app, { email: `busy-${stamp}@example.com` });
    const fine = await register(app, { email: `fine-${stamp}@example.com` });
    // Confirmed by hand: the sign-up mail went to the stand-in, which refuses two of them.
    await app.database.db
      .update(user)
      .set({ emailVerified: true })
      .where(
        inArray(
          user.email,
          [gone, busy, fine].map((buyer) => buyer.account.email),
        ),
      );
    for (const buyer of [gone, busy, fine]) await saveSearch(buyer, 'Subarus', 'make=Subaru');
    await listCar(seller, {
      name: 'Subaru Outback',
      make: 'Subaru',
      model: 'Outback',
      reprice: 14_000_00,
      year: 2018,
    });
    const alertsTo = (buyer: { account: { email: string } }) =>
      smtp.received.filter(
        (mail) => mail.to.includes(buyer.account.email) && mail.subject.includes('Subarus'),
      );
    await app.runAlerts();
    await app.runAlerts();
    expect([alertsTo(gone), alertsTo(busy), alertsTo(fine)].map((m) => m.length)).toEqual([
      0, 0, 1,
    ]);

    // The busy mailbox is tried again a minute later; here, now.
    busyRefuses = false;
    await app.database.db.update(mailQueue).set({ sendAfter: sql`now()` });
    await app.runAlerts();
    await app.runAlerts();
    expect([alertsTo(gone), alertsTo(busy), alertsTo(fine)].map((m) => m.length)).toEqual([
      0, 1, 1,
    ]);
    // The refused one is kept, given up on, for someone to read why.
    const left = await app.database.db.select().from(mailQueue);
    expect(left).toEqual([
      expect.objectContaining({
        recipient: gone.account.email,
        failedAt: expect.any(Date),
        lastError: expect.stringContaining('No such mailbox here'),
      }),
    ]);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('alerts with two server processes', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    [first, second] = await startTwoServers(env);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('sends exactly one instant alert per saved search and car', async () => {
    const seller = await signInAs(first, 'seller@demo.local');
    const buyers = await Promise.all(Array.from({ length: 6 }, () => buyerWithMail(second)));
    await Promise.all(buyers.map((buyer, i) => saveSearch(buyer, `Peugeots ${i}`, 'make=Peugeot')));
    for (let i = 0; i < 4; i++) {
      await listCar(seller, {
        name: `Peugeot 208 #${i}`,
        make: 'Peugeot',
        model: '208',
        reprice: 9_000_00 + i,
        year: 2019,
      });
      // Both workers at once, several times: each car must reach each search once.
      await Promise.all([
        first.runAlerts(),
        second.runAlerts(),
        first.runAlerts(),
        second.runAlerts(),
      ]);
    }
    // Both servers write to the same data directory's outbox.
    for (const buyer of buyers) {
      const mail = await mailTo(first, buyer.account.email);
      const listed = mail.flatMap((m) =>
        [...m.text.matchAll(/\/listing\/([0-9a-f-]{36})/g)].map((x) => x[1]),
      );
      expect(listed).toHaveLength(4);
      expect(new Set(listed).size).toBe(4);
    }
  });
});
