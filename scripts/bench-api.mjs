// `npm run bench:api`: serves the built app (embedded PGlite, and PostgreSQL too when
// BENCH_DATABASE_URL is set) and measures a few calls under concurrent load from this process.
// Each figure is printed beside a baseline measured in the same run: `GET /api/health`, which
// touches no database, so the ratios say what the database work costs. Figures, not a test.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 32);
const port = Number(process.env.BENCH_PORT ?? 3298);
const origin = `http://127.0.0.1:${port}`;

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', '--silent', 'build:server'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

async function startServer(extraEnv) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-bench-api-'));
  const child = spawn(process.execPath, ['apps/server/dist/server.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 240; i += 1) {
    try {
      if ((await fetch(`${origin}/api/ready`)).ok) break;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function rssMb(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** `concurrency` loops calling `request` for `seconds`; answers throughput and latency. */
async function load(request) {
  const latencies = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        try {
          const response = await request();
          await response.arrayBuffer();
          if (!response.ok) errors += 1;
        } catch {
          errors += 1;
        }
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors };
}

async function signIn() {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({
      email: 'buyer@demo.local',
      password: process.env.DEMO_PASSWORD ?? 'demo-drive-2026',
    }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const token = await fetch(`${origin}/api/jwt?email=buyer@demo.local`, { headers: { cookie } });
  return { cookie, bearer: (await token.json()).accessToken };
}

async function run(label, env) {
  const server = await startServer(env);
  try {
    const categories = await (await fetch(`${origin}/api/category`)).json();
    const { cookie, bearer } = await signIn();
    const cases = [
      ['GET /api/health (baseline)', () => fetch(`${origin}/api/health`)],
      ['GET /api/category', () => fetch(`${origin}/api/category`)],
      [
        'GET /api/category/:id (cookie)',
        () => fetch(`${origin}/api/category/${categories[0]._id}`, { headers: { cookie } }),
      ],
      [
        'GET /api/category/:id (bearer)',
        () =>
          fetch(`${origin}/api/category/${categories[0]._id}`, {
            headers: { authorization: `Bearer ${bearer}` },
          }),
      ],
      [
        'GET / (prerendered page)',
        () => fetch(`${origin}/`, { headers: { 'accept-encoding': 'br' } }),
      ],
    ];
    console.log(`\n## ${label}: ${concurrency} concurrent clients, ${seconds} s each`);
    console.log(
      '  call                              req/s    p50 ms   p99 ms   errors  vs baseline',
    );
    let baseline = 0;
    for (const [name, request] of cases) {
      await load(request); // warm up
      const result = await load(request);
      if (!baseline) baseline = result.rps;
      console.log(
        `  ${name.padEnd(32)} ${result.rps.toFixed(0).padStart(6)} ${result.p50.toFixed(1).padStart(8)} ${result.p99.toFixed(1).padStart(8)} ${String(result.errors).padStart(8)}  ${(result.rps / baseline).toFixed(2)}x`,
      );
    }
    console.log(`  server memory after the run: ${rssMb(server.pid).toFixed(0)} MB RSS`);
  } finally {
    await server.stop();
  }
}

await run('embedded PGlite', {});
const adminUrl = process.env.BENCH_DATABASE_URL;
if (adminUrl) {
  const name = `carmarket_bench_${Date.now()}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    await run('PostgreSQL', { DATABASE_URL: url.toString() });
  } finally {
    await client.query(`drop database if exists "${name}" with (force)`);
    await client.end();
  }
} else {
  console.log('\n(set BENCH_DATABASE_URL=postgres://... to measure PostgreSQL too)');
}
