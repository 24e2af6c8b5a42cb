// The exports of decision 042, timed: a seller's "Download my data" with --cars cars of --photos
// photos each, through HTTP, and an administrator's cars.csv of the same database; with
// --csv-database URL, also the cars CSV of that (large) database read in-process, with the
// process's peak RSS. Run: npx tsx apps/server/src/bench/exports-bench.ts [--cars 500]
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { listing, user } from '../db/schema.ts';
import { MEDIA_PREFIX } from '../adapters/storage.ts';
import { tableCsv } from '../modules/admin/admin-exports.ts';

const argument = (name: string, fallback: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1]! : fallback;
};
const CARS = Number(argument('cars', '500'));
const PHOTOS = Number(argument('photos', '4'));
const CSV_DATABASE = argument('csv-database', '');
/** Only the administrator's cars.csv through HTTP, of the database as it is (a large one). */
const CSV_ONLY = process.argv.includes('--csv-only');
const PASSWORD = 'bench-password-2026';

/** The process's resident memory at its highest while `work` ran, sampled every 20 ms. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  try {
    const result = await work();
    return { result, peakMb: Math.round(peak / 1024 / 1024) };
  } finally {
    clearInterval(sampler);
  }
}

/** Reads a download to its end, counting its bytes; answers seconds to the first and last byte. */
async function drain(response: Response) {
  const started = performance.now();
  let bytes = 0;
  let firstByte = 0;
  for await (const chunk of response.body! as unknown as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstByte = (performance.now() - started) / 1000;
    bytes += chunk.byteLength;
  }
  return { bytes, firstByte, seconds: (performance.now() - started) / 1000 };
}

async function signIn(origin: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-exports-bench-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'web-dist'),
    SEED_DEMO_CARS: 'small',
    DEMO_PASSWORD: PASSWORD,
    SIGN_UP_LIMIT_PER_IP: '100000',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  });
  const built = await buildApp({ config, logger: false });
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const address = built.app.server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const db = built.database.db;
  try {
    if (!CSV_ONLY) await timeDataExport();
    const admin = await signIn(origin, 'admin@demo.local', PASSWORD);
    const rssBefore = Math.round(process.memoryUsage.rss() / 1024 / 1024);
    const { result: csv, peakMb: csvPeak } = await withPeakRss(async () =>
      drain(await fetch(`${origin}/api/admin/exports/cars.csv`, { headers: { cookie: admin } })),
    );
    console.log(
      `cars.csv (HTTP, ${built.database.kind}): ${(csv.bytes / 1024 / 1024).toFixed(1)} MB in ${csv.seconds.toFixed(2)} s, RSS ${rssBefore} MB before, peak ${csvPeak} MB`,
    );
  } finally {
    await built.app.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }

  async function timeDataExport() {
    const [seller] = await db.select().from(user).where(eq(user.email, 'seller@demo.local'));
    const [demoCar] = await db
      .select()
      .from(listing)
      .where(eq(listing.sellerId, seller!.id))
      .limit(1);
    // Each bench car gets photos of its own: copies of the demo car's, under new keys.
    const uploads = path.join(dataDir, 'uploads');
    const sources = demoCar!.images.map((image) =>
      path.join(uploads, image.url.slice(MEDIA_PREFIX.length)),
    );
    const email = `bench-${Date.now()}@example.com`;
    const signUp = await fetch(`${origin}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ name: 'Bench Dealer', email, password: PASSWORD }),
    });
    if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status}`);
    const [person] = await db.select().from(user).where(eq(user.email, email));
    await db
      .update(user)
      .set({ roles: ['Seller'] })
      .where(eq(user.id, person!.id));
    let photoBytes = 0;
    for (let first = 0; first < CARS; first += 100) {
      const rows = [];
      for (let n = first; n < Math.min(CARS, first + 100); n += 1) {
        const id = randomUUID();
        const images = [];
        for (let p = 0; p < PHOTOS; p += 1) {
          const key = `bench-${id.slice(0, 8)}-${p}.webp`;
          const source = sources[p % sources.length]!;
          await fs.copyFile(source, path.join(uploads, key));
          photoBytes += (await fs.stat(source)).size;
          images.push({
            ...demoCar!.images[p % demoCar!.images.length]!,
            url: `${MEDIA_PREFIX}${key}`,
          });
        }
        rows.push({
          ...demoCar!,
          id,
          sellerId: person!.id,
          images,
          name: `Bench car ${n + 1}`,
          createdAt: new Date(),
        });
      }
      await db.insert(listing).values(rows.map(({ searchDoc: _generated, ...row }) => row));
    }
    console.log(
      `${CARS} cars with ${PHOTOS} photos each (${(photoBytes / 1024 / 1024).toFixed(0)} MB of photos), ${built.database.kind}`,
    );

    const cookie = await signIn(origin, email, PASSWORD);
    const rssBefore = Math.round(process.memoryUsage.rss() / 1024 / 1024);
    const { result: exported, peakMb } = await withPeakRss(async () =>
      drain(await fetch(`${origin}/api/my/data-export`, { headers: { cookie } })),
    );
    console.log(
      `data export: ${(exported.bytes / 1024 / 1024).toFixed(1)} MB in ${exported.seconds.toFixed(2)} s (first byte ${exported.firstByte.toFixed(2)} s), RSS ${rssBefore} MB before, peak ${peakMb} MB`,
    );
  }

  if (CSV_DATABASE) {
    const large = await openDatabase({
      url: CSV_DATABASE,
      pgliteDir: '',
      poolSize: 4,
      migrationsDir: config.migrationsDir,
    });
    try {
      const before = Math.round(process.memoryUsage.rss() / 1024 / 1024);
      const { result, peakMb } = await withPeakRss(async () => {
        const started = performance.now();
        let bytes = 0;
        let lines = 0;
        for await (const chunk of tableCsv(large.db, 'cars')) {
          const text = String(chunk);
          bytes += Buffer.byteLength(text);
          for (let i = text.indexOf('\r\n'); i >= 0; i = text.indexOf('\r\n', i + 2)) lines += 1;
        }
        return { bytes, lines, seconds: (performance.now() - started) / 1000 };
      });
      console.log(
        `cars.csv of ${CSV_DATABASE.replace(/\/\/[^@]*@/, '//')}: ${(result.lines - 1).toLocaleString('en-US')} cars, ${(result.bytes / 1024 / 1024).toFixed(0)} MB in ${result.seconds.toFixed(1)} s, RSS ${before} MB before, peak ${peakMb} MB`,
      );
    } finally {
      await large.close();
    }
  }
}

await main();
