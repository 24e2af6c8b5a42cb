// What the benches on the search's cars (`bench:search`, `bench:search-budget`, `bench:abuse`)
// share: their flags, the server built, the cars' data, a PostgreSQL database of cars, and the
// other person's car pages the flood benches time.
import { spawnSync } from 'node:child_process';
import { dataArrays, root, seedPostgres } from './bench-cars.ts';

/** The command line's flags: --no-build and --reuse for both, and each bench's own. */
export const flags = new Set(process.argv.slice(2));

/**
 * Builds the server (unless --no-build), makes the cars' data and seeds `cars` cars on sale into
 * PostgreSQL (with --reuse, an earlier run's when it holds enough). Answers the data, the place
 * the searches near a city start from (New York City) and the database's URL.
 */
export async function prepareSearchBench(options: { cars: number; port: number }) {
  if (!flags.has('--no-build')) {
    const build = spawnSync('npm', ['run', '--silent', 'build:server'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const data = dataArrays();
  const near = data.places.find((place) => place.label === 'New York City, NY') ?? data.places[0]!;
  const databaseUrl = await seedPostgres({ ...options, data, reuse: flags.has('--reuse') });
  return { data, near, databaseUrl };
}

/** The value p percent of `values` lie below; NaN when there are none. */
export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** A car page opened: when it began, its milliseconds and its status. */
export interface Timed {
  at: number;
  ms: number;
  status: number;
}

/**
 * Opens `count` car pages (GET /api/listings/:id, what the car page asks) one after another as
 * `cookie`; each one's milliseconds, status and start. A page that fails counts with the time
 * its failure took.
 */
export async function carPages(origin: string, cookie: string, ids: string[], count: number) {
  const times: Timed[] = [];
  for (let i = 0; i < count; i++) {
    const at = performance.now();
    const response = await fetch(`${origin}/api/listings/${ids[i % ids.length]}`, {
      headers: { cookie },
    });
    await response.arrayBuffer();
    times.push({ at, ms: performance.now() - at, status: response.status });
  }
  return times;
}
