import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCallers, AUTH_ROUTES, CALLERS, type Caller } from '../../test/api-calls.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { ACCESS } from './access-matrix.expected.ts';

/** Bodies per route: a few dozen in `npm test`; `npm run fuzz` sets FUZZ_RUNS=10000. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
/** Each run's seed is printed with its problems: FUZZ_SEED=<n> sends the same bodies again. */
const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : Math.floor(Math.random() * 2 ** 31);
/**
 * The slowest answer allowed: 2 s when fuzzing on its own (`npm run fuzz`); inside `npm test`,
 * where other test files load the machine at the same time, 5 s, to catch hangs and not noise.
 */
const LIMIT_MS = process.env.FUZZ_RUNS ? 2000 : 5000;

/**
 * The tables a refused request must leave as they were. The jobs do not run (`jobs: false`): the
 * "new message" mail, five minutes after a message, writes `conversation`, and the sweeps write
 * bookings, payments and uploads, none of it a refused body's doing.
 */
const TABLES = [
  'listing',
  'booking',
  'payment',
  'user',
  'upload',
  'category',
  'conversation',
  'message',
  'conversation_report',
];

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = i % 2 ? [value] : { a: value };
  return value;
}

/** Values no form would send: wrong types, control characters, huge and deep ones. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\u202e\u0007\u001b[31m',
    '\ud800',
    '𝕏'.repeat(2000),
    'x'.repeat(200_000),
    '<img src=x onerror=alert(1)>',
    "'; drop table listing; --",
    '../../../etc/passwd',
    '00000000-0000-0000-0000-000000000000',
    '1e309',
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 0, -0, 1e308, 2 ** 63),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 5 }),
  fc.object({ maxDepth: 3 }),
  fc.integer({ min: 20, max: 3000 }).map(nested),
);

/** A body as raw JSON text: a valid one with a field changed, dropped or added, or none at all. */
function mutatedBodies(valid: unknown): fc.Arbitrary<string> {
  const base = (valid && typeof valid === 'object' ? valid : {}) as Record<string, unknown>;
  const keys = Object.keys(base);
  const json = (value: unknown) => JSON.stringify(value) ?? 'null';
  const withField = (key: string, value: unknown) => json({ ...base, [key]: value });
  return fc.oneof(
    ...(keys.length
      ? [
          fc.tuple(fc.constantFrom(...keys), nasty).map(([key, value]) => withField(key, value)),
          fc.constantFrom(...keys).map((key) => {
            const rest = { ...base };
            delete rest[key];
            return json(rest);
          }),
        ]
      : []),
    fc.tuple(fc.string({ maxLength: 12 }), nasty).map(([key, value]) => withField(key, value)),
    // Prototype keys must be written into the text: an object literal would not keep them.
    fc
      .constantFrom('__proto__', 'constructor', 'prototype')
      .map((key) =>
        json(base).replace(/^\{/, `{"${key}":{"role":"admin","isAdmin":true,"polluted":1},`),
      ),
    nasty.map(json),
    fc.constantFrom('', '{', '{"a":', '[1,2', 'nul', '\u0000', '{"a":1}{"b":2}'),
  );
}

describe('any body, any route', () => {
  let app: TestApp;
  let callers: Awaited<ReturnType<typeof apiCallers>>;
  const figures: Array<{ route: string; sent: number; errors: number; slowestMs: number }> = [];
  /** Every answer that broke a rule, in the order sent: the run goes on to the end. */
  const problems: string[] = [];

  beforeAll(async () => {
    // Every call of a route is made for several callers: no quota may run out on the way.
    app = await startTestApp({
      jobs: false,
      env: {
        UPLOAD_QUOTA_PER_DAY: '1000',
        MESSAGE_LIMIT_PER_MINUTE: '100000',
        MESSAGE_LIMIT_PER_DAY: '100000',
        CONVERSATION_LIMIT_PER_DAY: '100000',
        UNCONFIRMED_CONVERSATION_LIMIT_PER_DAY: '100000',
      },
    });
    callers = await apiCallers(app);
    // Fitted at start where the jobs run: the cars' deal ratings as a running site has them.
    await app.runPriceGuide();
  });
  afterAll(async () => {
    if (figures.length) {
      console.log(`\nfuzz: ${RUNS} bodies per route`);
      console.log('  route                                  bodies   5xx  slowest');
      for (const f of figures) {
        console.log(
          `  ${f.route.padEnd(38)} ${String(f.sent).padStart(6)} ${String(f.errors).padStart(5)}  ${f.slowestMs.toFixed(0).padStart(5)} ms`,
        );
      }
    }
    if (problems.length) {
      console.log(`\nfuzz: ${problems.length} problems (FUZZ_SEED=${SEED} sends the same bodies)`);
      for (const problem of problems) console.log(`  ${problem}`);
    }
    await app.close();
  });

  /** A digest of every table a request could touch, to see that a refusal changed nothing. */
  async function snapshot(): Promise<string> {
    const digests = [];
    for (const table of TABLES) {
      const result = await app.database.db.execute(
        sql.raw(
          `select md5(coalesce(string_agg(t::text, '|' order by t.id), '')) as digest from "${table}" t`,
        ),
      );
      digests.push((result as { rows: Array<{ digest: string }> }).rows[0]!.digest);
    }
    return digests.join(',');
  }

  it(
    'never answers 5xx, answers within 2 s, and a refused body changes nothing',
    async () => {
      const doc = (await (await app.request('/api/docs/json')).json()) as {
        paths: Record<string, Record<string, { requestBody?: unknown }>>;
      };
      const routes = [
        ...Object.entries(doc.paths).flatMap(([path, methods]) =>
          Object.entries(methods)
            .filter(([, operation]) => operation.requestBody)
            .map(([method]) => ({ method: method.toUpperCase(), path })),
        ),
        // better-auth's settings calls that take a body, behind our checks (auth.routes.ts).
        ...AUTH_ROUTES.filter((route) => route.startsWith('POST')).map((route) => {
          const [method, path] = route.split(' ') as [string, string];
          return { method, path };
        }),
      ];
      expect(routes.length).toBeGreaterThanOrEqual(10);

      for (const { method, path } of routes) {
        const route = `${method} ${path}`;
        // Sent by a caller the route lets in, so that bodies reach the schemas and the services.
        const row = (ACCESS[route] ?? '').split(' ');
        const caller: Caller =
          (['buyer', 'seller', 'admin', 'anonymous'] as const).find(
            (name) =>
              Number(row[CALLERS.indexOf(name)]) < 500 &&
              !/^40[134]$/.test(row[CALLERS.indexOf(name)] ?? ''),
          ) ?? 'buyer';
        const call = await callers.callOf(method, path, caller);
        const figure = { route, sent: 0, errors: 0, slowestMs: 0 };
        figures.push(figure);
        await fc.assert(
          // Never fails, so fast-check neither stops at the first problem nor shrinks it: every
          // problem of the run is counted and listed at the end.
          fc.asyncProperty(mutatedBodies(call.body), async (body) => {
            const sent = JSON.stringify(body.slice(0, 200));
            const before = await snapshot();
            const started = performance.now();
            let status: number;
            try {
              const response = await callers.clients[caller].request(call.path, {
                method,
                headers: { 'content-type': 'application/json' },
                body,
              });
              await response.arrayBuffer();
              status = response.status;
            } catch (error) {
              // The connection dropped: as much a server failure as a 5xx.
              status = 599;
              problems.push(`${route} dropped the connection (${String(error)}) for ${sent}`);
            }
            const ms = performance.now() - started;
            figure.sent += 1;
            figure.slowestMs = Math.max(figure.slowestMs, ms);
            if (status >= 500) {
              figure.errors += 1;
              if (status !== 599) problems.push(`${route} answered ${status} to ${sent}`);
            }
            if (ms >= LIMIT_MS) problems.push(`${route} took ${ms.toFixed(0)} ms for ${sent}`);
            if (status >= 400 && (await snapshot()) !== before) {
              problems.push(`${route} refused ${sent} (${status}) but changed data`);
            }
          }),
          { numRuns: RUNS, seed: SEED },
        );
      }
      expect(problems, `the fuzz's problems (FUZZ_SEED=${SEED} sends the same bodies)`).toEqual([]);
    },
    // About 35 routes, each body with two snapshots of every table: a few seconds per body in
    // all routes on a busy 2-core machine.
    Math.max(180_000, RUNS * 5_000),
  );
});
