/**
 * `npm run bench:api`'s server (scripts/bench-api.mjs starts it; never part of the product): the
 * product on PORT, and on PORT + 1 each measured call's raw twin, which sends the same SQL
 * statements with the same driver handle (the product's `pg` pool, or the same PGlite) and
 * `JSON.stringify`s the rows, with no framework, validation, ORM mapping or auth library around
 * it. The twin's statements are recorded from one call of the product (`POST /record`), so they
 * are the SQL the product sends, not a hand-written guess at it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';

import { sql } from 'drizzle-orm';
import pino from 'pino';

import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { queryRows } from '../db/client.ts';
import { warmGazetteer } from '../modules/places/gazetteer.ts';

/** What the product's database handle (a `pg` pool or a PGlite) answers to `query`. */
interface Queryable {
  query(text: unknown, params?: unknown, options?: unknown): Promise<{ rows: unknown[] }>;
}

/** A `pg` pool checks out a client for a transaction; PGlite runs one through `transaction`. */
interface Driver extends Queryable {
  connect?: (callback?: unknown) => Promise<Queryable & { release(error?: Error): void }>;
  transaction?: <T>(work: (tx: Queryable) => Promise<T>) => Promise<T>;
}

interface Statement {
  text: unknown;
  params: unknown;
  options: unknown;
  /**
   * The transaction (a checked-out client) that sent it; none for the pool's own `query`. The
   * twin sends a transaction's statements in one transaction too, on one connection.
   */
  via?: number;
}

const config = loadConfig();
// BENCH_REQUEST_LOG=<file>: the request log on (one line a request, at `info`), written to that
// file as a server writes its log (`bench:api -- --observability`); else errors only.
const requestLog = process.env.BENCH_REQUEST_LOG;
const { app, database, auth } = await buildApp({
  config,
  // As server.ts writes its log (asynchronously), into a file instead of its standard output.
  logger: requestLog
    ? { level: 'info', stream: pino.destination({ dest: requestLog, sync: false }) }
    : { level: 'error' },
});
if (process.env.BENCH_PREPARE_ONLY) {
  // Migrated and seeded: the measured server starts on this database afterwards.
  await app.close();
  process.exit(0);
}
await app.listen({ host: '127.0.0.1', port: config.PORT });
// As server.ts does after listening: the place list is in memory in service.
warmGazetteer();
const product = `http://127.0.0.1:${config.PORT}`;

// Every statement the product sends while a call is recorded, its transactions' included.
const driver = (database.db as unknown as { $client: Driver }).$client;
const send = driver.query.bind(driver);
let recording: Statement[] | undefined;
driver.query = (text, params, options) => {
  recording?.push({ text, params, options });
  return send(text, params, options);
};
let transactions = 0;
/** Records what `handle` sends as statements of transaction `via`. */
function recordOn<T extends Queryable>(handle: T): T {
  const via = (transactions += 1);
  const query = handle.query.bind(handle);
  return Object.assign(Object.create(handle) as T, {
    query: (text: unknown, params?: unknown, options?: unknown) => {
      recording?.push({ text, params, options, via });
      return query(text, params, options);
    },
  });
}
const checkOut = driver.connect?.bind(driver);
if (checkOut) {
  // The pool's own `query` checks out with a callback: left as it is (recorded above).
  driver.connect = (callback?: unknown) =>
    callback
      ? checkOut(callback)
      : checkOut().then((client) => {
          if (!recording) return client;
          // Drizzle calls the client's query and release; both reach the real client.
          const recorded = recordOn(client);
          recorded.release = (error?: Error) => client.release(error);
          return recorded;
        });
}
const runTransaction = driver.transaction?.bind(driver);
if (runTransaction) {
  driver.transaction = (work) =>
    runTransaction((tx) => work(recording ? recordOn(tx) : tx)) as never;
}

// Buyers with sessions, made straight in the database: the booking call books a fresh
// (buyer, car) pair each time, and 10,000 accounts give the admin's user list its size.
// 600 buyers x the demo cars: more (buyer, car) pairs than the warm-ups and runs book together,
// so no pair is booked twice (which would answer 409, and fail the twin's unique index).
const BENCH_BUYERS = 600;
const LISTED_USERS = 10_000;
const { authCookies, secret } = await auth.$context;
const cookieOf = (token: string) =>
  `${authCookies.sessionToken.name}=${encodeURIComponent(`${token}.${createHmac('sha256', secret).update(token).digest('base64')}`)}`;

await queryRows(
  database.db,
  sql`insert into "user" (name, email, roles)
      select 'Listed Person ' || g, 'listed' || g || '@bench.local', array[case when g % 5 = 0 then 'Seller' else 'Buyer' end]
      from generate_series(1, ${LISTED_USERS}) g`,
);
const buyers = await queryRows<{ id: string; name: string; email: string }>(
  database.db,
  sql`insert into "user" (name, email, roles)
      select 'Bench Buyer ' || g, 'bench' || g || '@bench.local', array['Buyer']
      from generate_series(1, ${BENCH_BUYERS}) g
      returning id, name, email`,
);
const tokens = buyers.map(() => randomBytes(24).toString('base64url'));
await queryRows(
  database.db,
  sql`insert into session (token, user_id, expires_at)
      select token, user_id, now() + interval '7 days'
      from unnest(${`{${tokens.join(',')}}`}::text[], ${`{${buyers.map((b) => b.id).join(',')}}`}::uuid[])
        as s(token, user_id)`,
);
// A database in service has its planner statistics (autovacuum gathers them within a minute of
// a bulk write); without them the admin's list sorted every person instead of reading its index.
await queryRows(database.db, sql`analyze`);
const cars = (
  await queryRows<{ id: string }>(
    database.db,
    sql`select id from listing where status = 'available' order by id`,
  )
).map((car) => car.id);

/** Signs a demo account in through the product and answers its cookie. */
async function signIn(email: string): Promise<string> {
  const response = await fetch(`${product}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: product },
    body: JSON.stringify({ email, password: config.DEMO_PASSWORD }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email}: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

const demo = {
  buyer: await signIn('buyer@demo.local'),
  seller: await signIn('seller@demo.local'),
  admin: await signIn('admin@demo.local'),
};
const jwt = (await (
  await fetch(`${product}/api/jwt?email=buyer@demo.local`, { headers: { cookie: demo.buyer } })
).json()) as { accessToken: string };
const categories = (await (await fetch(`${product}/api/category`)).json()) as { _id: string }[];

const fixtures = {
  product,
  demo,
  bearer: jwt.accessToken,
  categoryId: categories[0]!._id,
  cars,
  buyers: tokens.map(cookieOf),
};

/** The recorded statements of each measured call, by name. */
const twins = new Map<string, { statements: Statement[]; values: Map<unknown, number> }>();

interface RecordRequest {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** For a call made again with other values (the booking call): which parameters vary. */
  buyer?: number;
  car?: number;
}

/** Makes one call of the product while recording the SQL it sends. */
async function record(call: RecordRequest) {
  const statements: Statement[] = [];
  recording = statements;
  let status: number;
  try {
    const response = await fetch(`${product}${call.path}`, {
      method: call.method,
      headers: {
        origin: product,
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...call.headers,
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
    await response.arrayBuffer();
    status = response.status;
  } finally {
    recording = undefined;
  }
  // Which recorded values stand for the buyer (0: token, 1: id, 2: name, 3: email) and the car
  // (4), so the twin can send the same statements for another pair.
  const values = new Map<unknown, number>();
  if (call.buyer !== undefined) {
    const buyer = buyers[call.buyer]!;
    [tokens[call.buyer], buyer.id, buyer.name, buyer.email].forEach((value, index) =>
      values.set(value, index),
    );
  }
  if (call.car !== undefined) values.set(cars[call.car], 4);
  // The mail sender's claims and deletes of queued mail are work the call starts for later, in
  // the background (a booking's notices): not the call's own SQL. Queueing the mail is.
  const own = statements.filter(
    (statement) => !/^(update|delete from) "?mail_queue\b/.test(textOf(statement)),
  );
  if (process.env.BENCH_SHOW_SQL) console.error(call.name, own.map(textOf));
  twins.set(call.name, { statements: own.map(asRaw), values });
  return { status, statements: own.length };
}

/**
 * A statement as a raw route sends it: the same SQL, name and values, its rows read as the
 * driver gives them by default (objects keyed by column, its own type parsing), not as the
 * arrays of unparsed values Drizzle asks for to map them itself. A twin that `JSON.stringify`ed
 * those arrays answered without a single field name (decision 018).
 */
function asRaw(statement: Statement): Statement {
  const plain = (value: unknown) => {
    if (!value || typeof value !== 'object') return value;
    const {
      rowMode: _rowMode,
      types: _types,
      parsers: _parsers,
      ...rest
    } = value as Record<string, unknown>;
    return rest;
  };
  return { ...statement, text: plain(statement.text), options: plain(statement.options) };
}

/** A statement's SQL text (Drizzle sends a query config object; raw calls a string). */
const textOf = ({ text }: Statement) =>
  typeof text === 'string' ? text : String((text as { text?: unknown }).text);

/** The twin of a recorded call: the same statements, one after another, and JSON.stringify. */
async function replay(name: string, buyer: number, car: number): Promise<string> {
  const twin = twins.get(name);
  if (!twin) throw new Error(`${name} was not recorded`);
  const other = [
    tokens[buyer],
    buyers[buyer]!.id,
    buyers[buyer]!.name,
    buyers[buyer]!.email,
    cars[car],
  ];
  const valuesOf = (params: unknown) =>
    twin.values.size > 0 && Array.isArray(params)
      ? params.map((value: unknown) => {
          const index = twin.values.get(value);
          return index === undefined ? value : other[index];
        })
      : params;
  const results: unknown[] = [];
  const { statements } = twin;
  for (let i = 0; i < statements.length;) {
    const { via } = statements[i]!;
    if (via === undefined) {
      const { text, params, options } = statements[i]!;
      results.push((await send(text, valuesOf(params), options)).rows);
      i += 1;
      continue;
    }
    // A transaction's statements, on one connection: PostgreSQL's recorded begin and commit
    // are among them; PGlite's `transaction` sends its own.
    let end = i;
    while (end < statements.length && statements[end]!.via === via) end += 1;
    const block = statements.slice(i, end);
    const run = async (handle: Queryable) => {
      for (const { text, params, options } of block) {
        results.push((await handle.query(text, valuesOf(params), options)).rows);
      }
    };
    if (checkOut) {
      const client = await checkOut();
      try {
        await run(client);
        client.release();
      } catch (error) {
        // Never back into the pool inside a failed transaction.
        client.release(error as Error);
        throw error;
      }
    } else await runTransaction!(run);
    i = end;
  }
  return JSON.stringify(results);
}

// `npm run bench:api -- --profile`: a CPU profile of this process while one call is under load;
// `--profile=heap` (`/profile/start?kind=heap`): what it allocates instead, garbage included.
const inspector = new Session();
inspector.connect();
/** What the profile under way samples: stopping ends that one. */
let sampling: 'cpu' | 'heap' = 'cpu';

async function startProfile(kind: 'cpu' | 'heap') {
  sampling = kind;
  if (kind === 'heap') {
    await inspector.post('HeapProfiler.enable');
    await inspector.post('HeapProfiler.startSampling', {
      samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as never);
    return;
  }
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.start');
}

async function stopProfile(file: string) {
  const { profile } =
    sampling === 'heap'
      ? await inspector.post('HeapProfiler.stopSampling')
      : await inspector.post('Profiler.stop');
  fs.writeFileSync(file, JSON.stringify(profile));
}

async function bodyOf(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString() || '{}');
}

http
  .createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://twin');
    const answer = (status: number, body: string) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    };
    let work: Promise<string>;
    if (url.pathname === '/fixtures') work = Promise.resolve(JSON.stringify(fixtures));
    // Mail the last figure queued (a booking's notices, the twin's too) is dropped before the
    // next one, so no figure pays for sending another's.
    else if (url.pathname === '/settle') work = send('delete from mail_queue').then(() => '{}');
    else if (url.pathname === '/memory')
      work = Promise.resolve(JSON.stringify(process.memoryUsage()));
    else if (url.pathname === '/profile/start') {
      work = startProfile(url.searchParams.get('kind') === 'heap' ? 'heap' : 'cpu').then(
        () => '{}',
      );
    } else if (url.pathname === '/profile/stop') {
      work = stopProfile(url.searchParams.get('file') ?? 'bench.cpuprofile').then(() => '{}');
    } else if (url.pathname === '/record' && request.method === 'POST') {
      work = bodyOf(request)
        .then((call) => record(call as RecordRequest))
        .then(JSON.stringify);
    } else if (url.pathname.startsWith('/twin/')) {
      work = replay(
        decodeURIComponent(url.pathname.slice('/twin/'.length)),
        Number(url.searchParams.get('buyer') ?? 0),
        Number(url.searchParams.get('car') ?? 0),
      );
    } else work = Promise.reject(new Error(`no route ${url.pathname}`));
    work.then(
      (body) => answer(200, body),
      (error: unknown) => answer(500, JSON.stringify({ error: String(error) })),
    );
  })
  .listen(config.PORT + 1, '127.0.0.1', () => {
    console.log('bench-ready');
  });

// Exit cleanly, so `node --cpu-prof` writes its profile.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().finally(() => process.exit(0));
  });
}
