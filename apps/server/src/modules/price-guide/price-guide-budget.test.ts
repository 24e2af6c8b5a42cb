import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, register } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { seedMarket } from './price-guide.test-helpers.ts';

/** A 429 of the search budget, with the words that say why. */
async function expectRefused(response: Response, words: RegExp) {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  const error = await errorOf(response);
  expect(error.code).toBe('too-many-requests');
  expect(error.message).toMatch(words);
}

/*
 * The seller's guide within the search budget (decision 048): a flood of guides from one person
 * is refused as a flood of searches is, and counts with their searches.
 */
describe("the seller's guide within the search budget", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { SEARCH_LIMIT_PER_MINUTE: '5', SEARCH_CONCURRENCY_PER_PERSON: '2' },
    });
    await seedMarket(app, { make: 'Kia', model: 'Ceed', bodyType: 'Hatchback' });
    await app.runPriceGuide();
  });
  afterAll(() => app.close());

  it('answers 429 to a flood of guides past the limit, with their searches, to that person only', async () => {
    const seller = await register(app, { role: 'Seller' });
    const guide = `/api/price-guide?make=Kia&model=Ceed&year=${new Date().getFullYear() - 4}`;
    const flood = await Promise.all(Array.from({ length: 30 }, () => seller.get(guide)));
    const answered = flood.filter((response) => response.status === 200);
    expect(answered.length).toBeGreaterThanOrEqual(1);
    expect(answered.length).toBeLessThanOrEqual(5);
    for (const response of flood.filter((response) => response.status !== 200)) {
      await expectRefused(response, /searche[sd]/);
    }
    // Guides and searches share the person's minute (refusals cost nothing): the rest of it
    // spent on guides, a search is refused; another person's budget is their own.
    for (let spent = answered.length; spent < 5; spent += 1) {
      expect((await seller.get(guide)).status).toBe(200);
    }
    await expectRefused(await seller.get('/api/listings?limit=3'), /5 times in the last minute/);
    const other = await register(app, { role: 'Seller' });
    expect((await other.get(guide)).status).toBe(200);
  });
});

/*
 * A person's guides running at once (SEARCH_CONCURRENCY_PER_PERSON): held in flight by a lock on
 * the fits from another connection. PostgreSQL only: on PGlite nothing waits outside the process,
 * so no guide is in flight beside another.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "the seller's guides running at once (PostgreSQL)",
  () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({
        env: {
          SEARCH_LIMIT_PER_MINUTE: '1000',
          SEARCH_CONCURRENCY_PER_PERSON: '2',
          SEARCH_CONCURRENCY_PER_PROCESS: '4',
          SEARCH_TIMEOUT_MS: '20000',
        },
      });
      await seedMarket(app, { make: 'Kia', model: 'Ceed', bodyType: 'Hatchback' });
      await app.runPriceGuide();
    });
    afterAll(() => app.close());

    it('refuses a person a third guide while two run, and frees their slots when they end', async () => {
      const seller = await register(app, { role: 'Seller' });
      const guide = `/api/price-guide?make=Kia&model=Ceed&year=${new Date().getFullYear() - 4}`;
      const client = new pg.Client({ connectionString: app.databaseUrl });
      await client.connect();
      let held = true;
      const release = async () => {
        if (!held) return;
        held = false;
        await client.query('rollback');
        await client.end();
      };
      try {
        await client.query('begin');
        await client.query('lock table price_guide_fit in access exclusive mode');
        const flood = Array.from({ length: 30 }, () => seller.get(guide));
        const settled = flood.map(() => false);
        flood.forEach((pending, i) => void pending.then(() => (settled[i] = true)));
        // Two wait on the fits; the other 28 are refused at once.
        await expect
          .poll(() => settled.filter(Boolean).length, { timeout: 10_000, interval: 50 })
          .toBe(28);
        await release();
        const answers = await Promise.all(flood);
        expect(answers.filter((response) => response.status === 200)).toHaveLength(2);
        const refused = answers.filter((response) => response.status !== 200);
        expect(refused).toHaveLength(28);
        for (const response of refused) {
          await expectRefused(response, /2 searches running already/);
        }
      } finally {
        await release();
      }
      expect((await seller.get(guide)).status).toBe(200);
    });
  },
);
