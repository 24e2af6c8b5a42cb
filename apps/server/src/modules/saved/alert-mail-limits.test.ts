import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SavedSearchListSchema } from '@carmarket/shared';
import { savedSearch } from '../../db/schema.ts';
import { register, signInAs, TestClient } from '../../test/client.ts';
import { confirmAddress } from '../../test/mail.ts';
import type { TestApp } from '../../test/test-app.ts';
import {
  listCar as listCarAs,
  mailTo,
  patch,
  put,
  saveSearch,
  env,
  startWithSeller,
} from './saved.test-helpers.ts';
import { startTwoServers } from '../../test/two-servers.ts';

/*
 * Issue 29: search alerts, digests and saved-car notices go only to confirmed addresses, and each
 * address gets at most ALERT_MAILS_PER_DAY of them a day; the rest goes in one mail after the day.
 */

/** Lists a `make` `model` of 2020 through the seller's form call. */
const listCar = (seller: TestClient, make: string, model: string, reprice = 20_000_00) =>
  listCarAs(seller, { name: `${make} ${model}`, make, model, reprice, year: 2020 });

const saveCar = (buyer: TestClient, carId: string) => put(buyer, `/api/saved-cars/${carId}`);
const reprice = (seller: TestClient, carId: string, cents: number) =>
  patch(seller, `/api/listings/${carId}`, { reprice: cents });

/** Their subjects, sorted: mail queued together may reach the outbox in any order. */
const subjects = async (app: TestApp, email: string) =>
  (await mailTo(app, email)).map((mail) => mail.subject).sort();

/** As if the day of every alert mail counted so far were over. */
const endTheDay = (app: TestApp) =>
  app.database.db.execute(sql`update alert_mail_day set day = day - 1`);

describe('alert mail only to confirmed addresses', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    ({ app, seller } = await startWithSeller());
  });
  afterAll(() => app.close());

  it('mails alerts, digests and saved-car notices to confirmed addresses only, and nothing that fell due before', async () => {
    const unconfirmed = await register(app);
    const confirmed = await register(app);
    await confirmAddress(app, confirmed);
    const first = await listCar(seller, 'Genesis', 'G70');
    for (const buyer of [unconfirmed, confirmed]) {
      await saveSearch(buyer, 'Genesis now', 'make=Genesis');
      await saveSearch(buyer, 'Genesis daily', 'make=Genesis', 'daily');
      expect((await saveCar(buyer, first)).status).toBe(200);
    }
    await listCar(seller, 'Genesis', 'G80');
    await app.runAlerts();
    expect((await reprice(seller, first, 18_000_00)).status).toBe(200);
    await app.runAlerts();
    const aDayLater = () =>
      app.database.db.update(savedSearch).set({ createdAt: sql`now() - interval '25 hours'` });
    await aDayLater();
    await app.runAlerts();

    expect(await subjects(app, confirmed.account.email)).toEqual([
      '2 new cars match "Genesis now"',
      'Price drop: Genesis G70',
      'Your daily cars for "Genesis daily": 2 new',
    ]);
    expect(await mailTo(app, unconfirmed.account.email)).toEqual([]);

    // Confirming later sends nothing of what fell due before: it was skipped, not kept.
    await confirmAddress(app, unconfirmed);
    await aDayLater();
    await app.runAlerts();
    expect(await mailTo(app, unconfirmed.account.email)).toEqual([]);

    // What falls due from then on is mailed.
    const later = await listCar(seller, 'Genesis', 'GV70');
    await app.runAlerts();
    const [alert, ...more] = await mailTo(app, unconfirmed.account.email);
    expect(more).toEqual([]);
    expect(alert!.subject).toBe('A new car matches "Genesis now"');
    expect(alert!.text).toContain(`/listing/${later}`);
    expect(alert!.text).not.toContain(`/listing/${first}`);
  });
});

describe('at most ALERT_MAILS_PER_DAY alert mails to an address a day', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    ({ app, seller } = await startWithSeller({ ALERT_MAILS_PER_DAY: '3' }));
  });
  afterAll(() => app.close());

  it('holds what is past the limit, with saved-car news, for one mail once the day is over', async () => {
    const buyer = await register(app);
    await confirmAddress(app, buyer);
    const saved = await listCar(seller, 'Cadillac', 'Escalade');
    expect((await saveCar(buyer, saved)).status).toBe(200);
    const models = ['Atto 3', 'Dolphin', 'Seal', 'Han'];
    for (const model of models) await saveSearch(buyer, `BYD ${model}`, `make=BYD&model=${model}`);
    const cars = [];
    for (const model of models) cars.push(await listCar(seller, 'BYD', model));
    expect((await reprice(seller, saved, 15_000_00)).status).toBe(200);
    await app.runAlerts();
    await app.runAlerts();
    // The first three searches saved are mailed; the fourth and the price drop are held.
    const firstThree = models
      .slice(0, 3)
      .map((model) => `A new car matches "BYD ${model}"`)
      .sort();
    expect(await subjects(app, buyer.account.email)).toEqual(firstThree);

    // More matches the same day, for a search already mailed: held too.
    const another = await listCar(seller, 'BYD', 'Atto 3');
    await app.runAlerts();
    expect(await subjects(app, buyer.account.email)).toEqual(firstThree);

    await endTheDay(app);
    await app.runAlerts();
    await app.runAlerts();
    const mail = await mailTo(app, buyer.account.email);
    expect(mail).toHaveLength(4);
    const held = mail.find((m) => m.subject.startsWith('The rest'))!;
    expect(held.subject).toMatch(/^The rest of your car alerts from \w+ \d+: 2 new$/);
    expect(held.text).toContain('at most 3 alert mails a day');
    expect(held.text).toMatch(/"BYD Atto 3": a new car\n- BYD Atto 3/);
    expect(held.text).toContain(`/listing/${another}`);
    expect(held.text).toContain(`"BYD Han": a new car`);
    expect(held.text).toContain(`/listing/${cars[3]}`);
    expect(held.text).toContain('- Price drop: Cadillac Escalade now costs $15,000 (was $20,000)');
    expect(held.headers?.['List-Unsubscribe']).toMatch(/\/api\/unsubscribe\?token=a\./);

    // The new day's alerts come one by one again, the held mail counted among them.
    const next = await listCar(seller, 'BYD', 'Seal');
    await app.runAlerts();
    const seal = (await mailTo(app, buyer.account.email)).filter((m) =>
      m.text.includes(`/listing/${next}`),
    );
    expect(seal.map((m) => m.subject)).toEqual(['A new car matches "BYD Seal"']);
    for (const model of ['Atto 3', 'Dolphin']) await listCar(seller, 'BYD', model);
    await app.runAlerts();
    expect(await mailTo(app, buyer.account.email)).toHaveLength(6);

    // The held mail's link stops all of it: every search's alerts and the saved-car mail.
    const token = /\/unsubscribe\?token=(a\.\S+)/.exec(held.text)![1]!;
    const stopped = await new TestClient(app).post(`/api/unsubscribe?token=${token}`);
    expect(await stopped.json()).toEqual({
      unsubscribed: true,
      what: 'alerts for all your saved searches and mail about your saved cars',
    });
    const searches = SavedSearchListSchema.parse(
      await (await buyer.get('/api/saved-searches')).json(),
    );
    expect(searches.map((search) => search.alerts)).toEqual(models.map(() => 'off'));
    await endTheDay(app);
    await reprice(seller, saved, 14_000_00);
    await listCar(seller, 'BYD', 'Han');
    await app.runAlerts();
    await app.runAlerts();
    expect(await mailTo(app, buyer.account.email)).toHaveLength(6);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the daily limit with two server processes', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    [first, second] = await startTwoServers({ ...env, ALERT_MAILS_PER_DAY: '3' });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('sends an address three alerts, then one held mail, with both workers at once', async () => {
    const seller = await signInAs(first, 'seller@demo.local');
    const buyer = await register(second);
    await confirmAddress(second, buyer);
    // Alerts and saved-car notices, so that the two workers' steps count on the same row at once.
    const models = ['Pacifica', '300', 'Voyager'];
    const saved = [];
    for (const model of models) saved.push(await listCar(seller, 'Chrysler', model));
    for (const car of saved) expect((await saveCar(buyer, car)).status).toBe(200);
    for (let i = 0; i < 4; i++) await saveSearch(buyer, `Dodges ${i}`, 'make=Dodge');
    await first.runAlerts();
    await listCar(seller, 'Dodge', 'Charger');
    for (const car of saved) expect((await reprice(seller, car, 10_000_00)).status).toBe(200);
    const bothWorkers = () =>
      Promise.all([first.runAlerts(), second.runAlerts(), first.runAlerts(), second.runAlerts()]);
    await bothWorkers();
    // Both servers write to the same data directory's outbox.
    expect(await mailTo(first, buyer.account.email)).toHaveLength(3);
    await endTheDay(first);
    await bothWorkers();
    const mail = await mailTo(first, buyer.account.email);
    expect(mail).toHaveLength(4);
    const held = mail.filter((m) => m.subject.startsWith('The rest'));
    expect(held).toHaveLength(1);
    // Seven things to tell, three told one by one: the held mail has the other four.
    const told = (text: string) => (text.match(/^"Dodges \d"|^- Price drop/gm) ?? []).length;
    expect(mail.reduce((sum, m) => sum + (m === held[0] ? told(m.text) : 1), 0)).toBe(7);
  });
});
