import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { book, newCar, payFor } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { eventually, hold, startPaying } from '../payments/payments.test-helpers.ts';

const TOKEN = 'metrics-token-for-the-test-0123456789';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** Every label value of a scrape, with the line it is on. */
function labelValues(text: string): Array<{ value: string; line: string }> {
  const values: Array<{ value: string; line: string }> = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    for (const match of line.matchAll(/\w+="((?:[^"\\]|\\.)*)"/g)) {
      values.push({ value: match[1]!, line });
    }
  }
  return values;
}

/** The value of the first sample whose line has `name` and every one of `labels`. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const line = text
    .split('\n')
    .find(
      (candidate) =>
        (candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `)) &&
        Object.entries(labels).every(([key, value]) => candidate.includes(`${key}="${value}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  let app: TestApp;
  const scrape = () => app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
  beforeAll(async () => {
    app = await startTestApp({ env: { METRICS_TOKEN: TOKEN, PAYMENT_SWEEP_SECONDS: '3600' } });
  });
  afterAll(() => app.close());

  it('is not served at all without METRICS_TOKEN', async () => {
    const plain = await startTestApp();
    try {
      const response = await plain.request('/metrics', {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.status).toBe(404);
      await response.arrayBuffer();
    } finally {
      await plain.close();
    }
  });

  it('answers 401 without the token or with a wrong one', async () => {
    for (const headers of [
      {},
      { authorization: `Bearer ${TOKEN}x` },
      { authorization: TOKEN },
      { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
    ]) {
      const response = await app.request('/metrics', { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(await response.text()).not.toContain('http_request_duration_seconds');
    }
  });

  it("answers Prometheus's text format with the process's own metrics", async () => {
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(text).toContain('nodejs_heap_size_used_bytes');
    expect(sample(text, 'carmarket_mail_queue_depth')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'carmarket_mail_queue_oldest_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'carmarket_live_streams_open')).toBe(0);
    // PostgreSQL's pool; the embedded database has none.
    if (app.databaseUrl) expect(sample(text, 'db_pool_waiting')).toBe(0);
    else expect(sample(text, 'db_pool_waiting')).toBeUndefined();
  });

  it('counts requests by route pattern, never by the address asked', async () => {
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    expect((await buyer.get(`/api/listings/${car.id}`)).status).toBe(200);
    await (await app.request(`/no/such/page/${car.id}`)).arrayBuffer();
    const text = await (await scrape()).text();
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        route: '/api/listings/:id',
        method: 'GET',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'db_query_duration_seconds_count')).toBeGreaterThan(0);
    expect(text).not.toContain(car.id);
  });

  it('counts a job run, a hold and a payment by outcome', async () => {
    await app.payments.sweep();
    const car = await newCar(app);
    const buyer = await book(app, car.id);
    expect((await startPaying(buyer, buyer.bookingId)).response.status).toBe(200);
    expect((await hold(buyer, buyer.bookingId)).response.status).toBe(200);
    await payFor(buyer, buyer.bookingId);
    // The sandbox's webhook records the sale too, in the background: one of the two finds it
    // recorded already.
    const text = await eventually(
      async () => (await scrape()).text(),
      (scraped) =>
        sample(scraped, 'carmarket_payments_total', { outcome: 'paid' }) === 1 &&
        sample(scraped, 'carmarket_payments_total', { outcome: 'already' }) === 1,
    );
    expect(sample(text, 'carmarket_job_runs_total', { job: 'payment sweep' })).toBe(1);
    expect(sample(text, 'carmarket_job_failures_total', { job: 'payment sweep' })).toBe(0);
    expect(
      sample(text, 'carmarket_job_last_success_timestamp_seconds', { job: 'payment sweep' }),
    ).toBeGreaterThan(Date.now() / 1000 - 3600);
    expect(sample(text, 'carmarket_holds_total', { outcome: 'held' })).toBe(1);
    expect(sample(text, 'carmarket_payments_total', { outcome: 'paid' })).toBe(1);
  });

  it('carries no id, address or raw path in any label', async () => {
    const text = await (await scrape()).text();
    const values = labelValues(text);
    expect(values.length).toBeGreaterThan(20);
    for (const { value, line } of values) {
      expect(value, line).not.toMatch(UUID);
      expect(value, line).not.toContain('@');
    }
  });
});
