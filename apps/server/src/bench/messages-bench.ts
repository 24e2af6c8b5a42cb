// `npm run bench:messages`: live conversations under load (issue 16, decision 015). Two server
// processes (the built bundle) share a fresh PostgreSQL database (BENCH_DATABASE_URL, an admin
// URL; default the local server) and Redis (BENCH_REDIS_URL). 1,000 buyers hold a live stream
// each on the first process; 50 sellers answer them at 200 messages a second, half through each
// process. Prints the delivery latency (from the moment a seller's request leaves to the moment
// the buyer's stream has the message) at p50/p99, messages lost, the send call's own p50/p99,
// and each process's memory (RSS now and at its peak). Figures, not a test: nothing here fails
// on a number. Settings: BENCH_STREAMS (1000), BENCH_RATE (200 a second), BENCH_SECONDS (20),
// BENCH_PORT (3296; the second process uses the next), BENCH_WARMUP_SECONDS (2), --no-build.
//
// The measured load follows a warm-up at the same rate through both processes, printed on its
// own line: a process's first messages run its code cold (V8 has compiled nothing yet, the pool
// has no connections) and, on two cores, took up to a second each while the load queued behind
// them (decision 015).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { serverRoot } from '../config.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const SELLERS = 50;
const port = Number(process.env.BENCH_PORT ?? 3296);
const TARGET = { p99Ms: 250, rssMb: 400 };
const root = path.join(serverRoot, '../..');
const secret = randomBytes(32).toString('hex');

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const name = 'carmarket_bench_messages';
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${name}`;

const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGTERM');
});

async function startServer(listenPort: number): Promise<{ child: ChildProcess; origin: string }> {
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(
    process.execPath,
    [...profile, path.join(root, 'apps/server/dist/server.js')],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        // Each process is its own site here: its pages (and the bench) send its origin.
        PUBLIC_URL: `http://127.0.0.1:${listenPort}`,
        BETTER_AUTH_SECRET: secret,
        PORT: String(listenPort),
        HOST: '127.0.0.1',
        DATABASE_URL: dbUrl.toString(),
        DATABASE_POOL_SIZE: '20',
        REDIS_URL: redisUrl,
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-bench-messages-')),
        SEED_DEMO_CARS: 'small',
        LOG_LEVEL: 'error',
        // Sellers here write far faster than people do; the limits are not what is measured.
        MESSAGE_LIMIT_PER_MINUTE: '1000000',
        MESSAGE_LIMIT_PER_DAY: '1000000',
        ALERT_INTERVAL_MS: '3600000',
        PAYMENT_SWEEP_SECONDS: '3600',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  children.push(child);
  const origin = `http://127.0.0.1:${listenPort}`;
  for (let i = 0; i < 240; i += 1) {
    const ready = await fetch(`${origin}/api/ready`).catch(() => undefined);
    if (ready?.ok) return { child, origin };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server on ${listenPort} did not become ready`);
}

const a = await startServer(port);
const b = await startServer(port + 1);

// People, sessions and conversations are written straight into the database: signing 1,050
// people up through the API would spend minutes hashing passwords, which is not measured here.
const db = new pg.Client({ connectionString: dbUrl.toString() });
await db.connect();
const [demoCar] = (await db.query(`select * from listing order by created_at limit 1`))
  .rows as Array<Record<string, unknown>>;
const person = async (role: 'Buyer' | 'Seller', n: number) => {
  const id = randomUUID();
  await db.query(
    `insert into "user" (id, name, email, roles, email_verified) values ($1, $2, $3, array[$4], true)`,
    [id, `Bench ${role} ${n}`, `bench-${role.toLowerCase()}-${n}@example.com`, role],
  );
  const token = randomBytes(24).toString('base64url');
  await db.query(
    `insert into session (token, user_id, expires_at) values ($1, $2, now() + interval '6 days')`,
    [token, id],
  );
  // better-auth's session cookie: the token and its HMAC under the app secret.
  const signature = createHmac('sha256', secret).update(token).digest('base64');
  return { id, cookie: `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}` };
};
const sellers = [];
for (let n = 0; n < SELLERS; n += 1) {
  const seller = await person('Seller', n);
  const carId = randomUUID();
  await db.query(
    `insert into listing (id, category_id, seller_id, seller_name, name, condition, location, year,
       make, model, reprice_cents, orprice_cents, currency, images)
     values ($1, $2, $3, $4, $5, 'Good', 'Bench City', 2020, 'Toyota', 'Corolla', 1000000, 1200000, 'USD', $6)`,
    [
      carId,
      demoCar!.category_id,
      seller.id,
      `Bench Seller ${n}`,
      `Bench car ${n}`,
      JSON.stringify(demoCar!.images),
    ],
  );
  sellers.push({ ...seller, carId });
}
const conversations: Array<{ id: string; seller: (typeof sellers)[number]; buyer: number }> = [];
const buyers = [];
for (let n = 0; n < STREAMS; n += 1) {
  const buyer = await person('Buyer', n);
  const seller = sellers[n % SELLERS]!;
  const { rows } = await db.query(
    `insert into conversation (listing_id, buyer_id, seller_id) values ($1, $2, $3) returning id`,
    [seller.carId, buyer.id, seller.id],
  );
  buyers.push(buyer);
  conversations.push({ id: (rows[0] as { id: string }).id, seller, buyer: n });
}
await db.end();

const rssMb = (child: ChildProcess) => {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const field = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { now: field('VmRSS') / 1024, peak: field('VmHWM') / 1024 };
};

/** CPU seconds a process has used (user + system), from /proc. */
const cpuSeconds = (child: ChildProcess) => {
  const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const beforeStreams = rssMb(a.child);

// The streams: one connection each, all on the first process.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const sentAt = new Map<string, number>();
/** Delivery latencies of the load under way (the warm-up's, then the measured load's). */
let latencies: number[] = [];
let opened = 0;
let readyStreams = 0;
const requests: http.ClientRequest[] = [];
function openStream(cookie: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${a.origin}/api/conversations/stream`,
      { agent, headers: { cookie, accept: 'text/event-stream' } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream answered ${response.statusCode}`));
          return;
        }
        opened += 1;
        response.setEncoding('utf8');
        let buffer = '';
        response.on('data', (chunk: string) => {
          const now = performance.now();
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            if (block.includes('event: ready')) {
              readyStreams += 1;
              resolve();
            }
            if (!block.includes('event: message')) continue;
            const data = block.slice(block.indexOf('data: ') + 6);
            const { message } = JSON.parse(data) as { message: { body: string } };
            const key = message.body.split(' ')[0]!;
            const started = sentAt.get(key);
            if (started !== undefined) {
              latencies.push(now - started);
              sentAt.delete(key);
            }
          }
        });
      },
    );
    request.on('error', reject);
    requests.push(request);
  });
}
const started = performance.now();
for (let i = 0; i < buyers.length; i += 50) {
  await Promise.all(buyers.slice(i, i + 50).map((buyer) => openStream(buyer.cookie)));
}
const openSeconds = (performance.now() - started) / 1000;
await new Promise((resolve) => setTimeout(resolve, 1000));
const idle = rssMb(a.child);

// The sellers: keep-alive connections to both processes.
const sendAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let sendTimes: number[] = [];
let refused = 0;
function send(origin: string, conversationId: string, cookie: string, body: string) {
  const payload = JSON.stringify({ body });
  const begun = performance.now();
  return new Promise<void>((resolve) => {
    const request = http.request(
      `${origin}/api/conversations/${conversationId}/messages`,
      {
        method: 'POST',
        agent: sendAgent,
        headers: {
          cookie,
          origin,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          sendTimes.push(performance.now() - begun);
          if (response.statusCode !== 200) refused += 1;
          resolve();
        });
      },
    );
    request.on('error', () => {
      refused += 1;
      resolve();
    });
    request.end(payload);
  });
}
/**
 * Sends `RATE` messages a second for `seconds`, open loop (one every 1000/RATE ms whatever the
 * answers), alternating processes; waits for the answers and up to 5 s for the last deliveries.
 */
async function runLoad(seconds: number, label: string) {
  latencies = [];
  sendTimes = [];
  refused = 0;
  sentAt.clear();
  const total = RATE * seconds;
  const interval = 1000 / RATE;
  const inFlight: Promise<void>[] = [];
  const loadStart = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = loadStart + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const conversation = conversations[Math.floor(Math.random() * conversations.length)]!;
    const key = `${label}${i}`;
    sentAt.set(key, performance.now());
    inFlight.push(
      send(
        i % 2 ? b.origin : a.origin,
        conversation.id,
        conversation.seller.cookie,
        `${key} Is Saturday still good for you?`,
      ),
    );
  }
  const loadSeconds = (performance.now() - loadStart) / 1000;
  await Promise.all(inFlight);
  for (let i = 0; i < 50 && sentAt.size > 0; i += 1) await new Promise((r) => setTimeout(r, 100));
  return {
    total,
    loadSeconds,
    latencies,
    sendTimes,
    refused,
    lost: sentAt.size,
  };
}

const warmup = await runLoad(WARMUP_SECONDS, 'w');
let peakA = idle.peak;
let peakB = rssMb(b.child).peak;
const sampler = setInterval(() => {
  peakA = Math.max(peakA, rssMb(a.child).now);
  peakB = Math.max(peakB, rssMb(b.child).now);
}, 500);
const cpuBefore = { a: cpuSeconds(a.child), b: cpuSeconds(b.child) };
const measured = await runLoad(SECONDS, 'm');
const { total, loadSeconds } = measured;
const achievedRate = total / loadSeconds;
clearInterval(sampler);
const end = { a: rssMb(a.child), b: rssMb(b.child) };
const cpu = { a: cpuSeconds(a.child) - cpuBefore.a, b: cpuSeconds(b.child) - cpuBefore.b };
const load = os.loadavg()[0]!;

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;
const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target');
const p50 = pct(measured.latencies, 50);
const p99 = pct(measured.latencies, 99);
const peakRss = Math.max(peakA, end.a.peak);

console.log(
  `\n## live messages: ${STREAMS} streams on one process, ${RATE} messages/s through two`,
);
console.log(
  `  machine              ${os.cpus().length} cores, PostgreSQL + Redis on it too; load average ${load.toFixed(1)} at the end`,
);
console.log(
  `  streams open         ${opened} (ready ${readyStreams}) in ${openSeconds.toFixed(1)} s`,
);
console.log(
  `  warm-up              ${warmup.total} in ${WARMUP_SECONDS} s, ${warmup.refused} refused, lost ${warmup.lost}; delivery p50 ${ms(pct(warmup.latencies, 50))}  p99 ${ms(pct(warmup.latencies, 99))}  max ${ms(Math.max(...warmup.latencies))} (cold processes, not measured below)`,
);
console.log(
  `  sent                 ${total} in ${SECONDS} s (${achievedRate.toFixed(0)}/s achieved), ${measured.refused} refused`,
);
console.log(`  delivered            ${measured.latencies.length}, lost ${measured.lost}`);
console.log(
  `  delivery latency     p50 ${ms(p50)}  p99 ${ms(p99)}  max ${ms(Math.max(...measured.latencies))}`,
);
console.log(
  `  send call            p50 ${ms(pct(measured.sendTimes, 50))}  p99 ${ms(pct(measured.sendTimes, 99))}`,
);
console.log(
  `  CPU under load       streams process ${((cpu.a / (loadSeconds + 1)) * 100).toFixed(0)}%, other ${((cpu.b / (loadSeconds + 1)) * 100).toFixed(0)}% of a core (${(((cpu.a + cpu.b) / total) * 1000).toFixed(2)} ms a message)`,
);
console.log(
  `  RSS, streams process ${beforeStreams.now.toFixed(0)} MB before the streams, ${idle.now.toFixed(0)} MB with them idle, ${end.a.now.toFixed(0)} MB after, peak ${peakRss.toFixed(0)} MB`,
);
console.log(
  `  RSS, other process   ${end.b.now.toFixed(0)} MB after, peak ${Math.max(peakB, end.b.peak).toFixed(0)} MB`,
);
console.log('\n## against the targets (issue 16)');
console.log(
  `  delivery p99        ${ms(p99).padEnd(10)} target <= ${TARGET.p99Ms} ms  ${verdict(p99 <= TARGET.p99Ms)}`,
);
console.log(
  `  streams process RSS ${`${peakRss.toFixed(0)} MB`.padEnd(10)} target <= ${TARGET.rssMb} MB  ${verdict(peakRss <= TARGET.rssMb)}`,
);

for (const request of requests) request.destroy();
agent.destroy();
sendAgent.destroy();
for (const child of children) child.kill('SIGTERM');
await new Promise((resolve) => setTimeout(resolve, 500));
process.exit(0);
