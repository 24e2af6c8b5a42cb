import { promisify } from 'node:util';
import { constants, gzip as gzipCallback, gzipSync } from 'node:zlib';
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { sitemapFile } from '../../db/schema.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import { AppError } from '../../lib/errors.ts';
import { isLockTimeout } from '../../lib/db-errors.ts';
import { carSitemaps, EMPTY_URLSET, sitemapIndex } from './sitemap.service.ts';

const gzipAsync = promisify(gzipCallback);
/** Random ids compress no better at the default level, which takes three times as long. */
const gzip = (xml: string) => gzipAsync(xml, { level: constants.Z_BEST_SPEED });

/**
 * While a process finds the last build out of date and another process building, it serves the
 * last build and looks again this long after (a build of 225,000 cars takes a few seconds); so
 * too after a build failed.
 */
const RECHECK_MS = 5_000;
/** How long a process waits for another's first build before answering 503. */
const FIRST_BUILD_WAIT_MS = 20_000;
/**
 * Each statement of a build (a keyset query of 5,000 cars, an insert) takes milliseconds; one
 * that waits this long is stuck, and the request waiting for the build is answered instead.
 */
const BUILD_STATEMENT_TIMEOUT_MS = 60_000;
/** A build of another origin (PUBLIC_URL changed) is deleted when it is this old. */
const ABANDONED_MS = 86_400_000;
const INDEX = 'index';

/** No build stored yet, and another process's first build outlasted the wait, or failed. */
const stillBuilding = (retryAfterSeconds: number) =>
  new AppError(503, 'unavailable', 'The sitemaps are being built. Please try again shortly.', {
    retryAfterSeconds,
  });

/** A car sitemap of a build: the name its body is stored under, its first and last car. */
export interface StoredPage {
  name: string;
  from: string;
  to: string;
}

/** A build as a process knows it: its pages, and the gzipped bodies it has read so far. */
export interface Build {
  builtAt: number;
  /** In id order. */
  pages: StoredPage[];
  /** When this process last compared it with the database. */
  checkedAt: number;
  bodies: Map<string, Promise<Buffer | undefined>>;
}

export interface SitemapFilesOptions {
  db: Db;
  /** The site's origin: the stored XML names absolute URLs, so each origin has its own build. */
  origin: () => string;
  perPage: number;
  /** How long a build is served before the next (SITEMAP_REBUILD_MINUTES). */
  rebuildMs: number;
  /** The clock builds are dated and aged by: `Date.now`, or a test's. */
  now: () => number;
  background: BackgroundWork;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}

export interface SitemapFiles {
  /** The current build: read from the database, or built, at most once per interval. */
  current(): Promise<Build>;
  /**
   * A file of the current build, gzipped, and the build it is of: `index`, or a page's name;
   * undefined when the build has none. The build may be newer than `current()` gave a moment
   * before, where a page of the same name covers other cars.
   */
  file(name: string): Promise<{ body: Buffer; build: Build } | undefined>;
}

/** The gzipped car sitemap of no cars. */
export const EMPTY_URLSET_GZIP = gzipSync(EMPTY_URLSET);

/**
 * The sitemap index and the car sitemaps, built once per interval across processes (decision
 * 045): built whole in one transaction under an advisory lock, stored gzipped in `sitemap_file`,
 * and served from each process's memory, which reads a build's page when first asked for it.
 * A process whose copy is younger than the interval reads nothing; past it, one request looks
 * at the database: a newer build is read, an old one is rebuilt by the process that takes the
 * lock, while the others serve the old one. With none stored yet, the others wait for the
 * builder (FIRST_BUILD_WAIT_MS, then 503). A failed build is tried again RECHECK_MS later, the
 * old build served meanwhile (with none, a 503).
 */
export function createSitemapFiles(options: SitemapFilesOptions): SitemapFiles {
  const { db, perPage, rebuildMs, now, log } = options;
  let copy: Build | undefined;
  let refreshing: Promise<Build | undefined> | undefined;
  /** When the last look failed while this process had no build to serve. */
  let failedAt: number | undefined;

  const isFresh = (builtAt: number) => now() - builtAt < rebuildMs;
  const adopt = (stored: { builtAt: number; pages: StoredPage[] }): Build => {
    if (copy?.builtAt !== stored.builtAt) copy = { ...stored, checkedAt: 0, bodies: new Map() };
    copy.checkedAt = now();
    return copy;
  };

  async function refresh(): Promise<Build | undefined> {
    const origin = options.origin();
    failedAt = undefined;
    try {
      const stored = await readBuild(db, origin);
      if (stored && isFresh(stored.builtAt)) return adopt(stored);
      const built = await build(origin, { wait: !stored });
      if (built) return adopt(built);
      // Another process is building: its build is read once it is done.
      return stored && adopt(stored);
    } catch (error) {
      // A build is a pass over every car on sale: tried again after a pause, not per request,
      // and meanwhile the last build is served.
      log.error({ err: error, retryInMs: RECHECK_MS }, 'building the sitemaps failed');
      if (copy) {
        copy.checkedAt = now();
        return copy;
      }
      failedAt = now();
      return undefined;
    }
  }

  /** Builds every file of `origin` in one transaction, or answers undefined: another builds. */
  async function build(origin: string, { wait }: { wait: boolean }) {
    const key = sql`hashtextextended(${`sitemaps:${origin}`}, 0)`;
    try {
      return await db.transaction(async (tx) => {
        // PGlite has no timer to fire it; its builds are of few cars (decision 045).
        await tx.execute(sql.raw(`set local statement_timeout = ${BUILD_STATEMENT_TIMEOUT_MS}`));
        if (wait) {
          await tx.execute(sql.raw(`set local lock_timeout = ${FIRST_BUILD_WAIT_MS}`));
          await tx.execute(sql`select pg_advisory_xact_lock(${key})`);
        } else {
          const [lock] = await queryRows<{ locked: boolean }>(
            tx,
            sql`select pg_try_advisory_xact_lock(${key}) as locked`,
          );
          if (!lock?.locked) return undefined;
        }
        // Another process may have built while this one waited for the lock.
        const stored = await readBuild(tx, origin);
        if (stored && isFresh(stored.builtAt)) return stored;
        const started = performance.now();
        const built = await writeBuild(tx, origin, new Date(now()));
        log.info(
          { pages: built.pages.length, ms: Math.round(performance.now() - started) },
          'sitemaps built',
        );
        return built;
      });
    } catch (error) {
      // The other process's first build took longer than the wait.
      if (isLockTimeout(error)) return undefined;
      throw error;
    }
  }

  async function writeBuild(tx: Tx, origin: string, builtAt: Date) {
    await tx
      .delete(sitemapFile)
      .where(
        or(
          eq(sitemapFile.origin, origin),
          lt(sitemapFile.builtAt, new Date(builtAt.getTime() - ABANDONED_MS)),
        ),
      );
    const pages: (StoredPage & { lastmod: Date })[] = [];
    for await (const page of carSitemaps(tx, { origin, perPage })) {
      const name = `cars-${pages.length}`;
      const body = await gzip(page.xml);
      await tx
        .insert(sitemapFile)
        .values({ origin, name, fromId: page.from, toId: page.to, body, builtAt });
      pages.push({ name, from: page.from, to: page.to, lastmod: page.lastmod });
    }
    const body = await gzip(sitemapIndex(origin, pages));
    await tx.insert(sitemapFile).values({ origin, name: INDEX, body, builtAt });
    return {
      builtAt: builtAt.getTime(),
      pages: pages.map(({ name, from, to }) => ({ name, from, to })),
    };
  }

  async function current(): Promise<Build> {
    const at = now();
    if (copy && (isFresh(copy.builtAt) || at - copy.checkedAt < RECHECK_MS)) return copy;
    if (!copy && failedAt !== undefined && at - failedAt < RECHECK_MS) {
      throw stillBuilding(RECHECK_MS / 1000);
    }
    // The request that looks waits for what it finds (or builds); the others meanwhile are
    // served the copy this process has, if any.
    if (!refreshing) {
      refreshing = refresh().finally(() => {
        refreshing = undefined;
      });
      // A build outlives a request whose client left; closing waits for it (decision 022).
      void options.background.track('sitemap build', refreshing);
    } else if (copy) {
      return copy;
    }
    const found = await refreshing;
    if (!found) throw stillBuilding(failedAt === undefined ? 30 : RECHECK_MS / 1000);
    return found;
  }

  async function file(name: string): Promise<{ body: Buffer; build: Build } | undefined> {
    let found = await current();
    for (let attempt = 0; ; attempt += 1) {
      if (name !== INDEX && !found.pages.some((page) => page.name === name)) return undefined;
      const build = found;
      let body = build.bodies.get(name);
      if (!body) {
        // Read once per build and process; a failed or missing read is tried again next time.
        const reading = readBody(db, options.origin(), name, build.builtAt);
        build.bodies.set(name, reading);
        reading.then(
          (read) => {
            if (!read) build.bodies.delete(name);
          },
          () => build.bodies.delete(name),
        );
        body = reading;
      }
      const read = await body;
      if (read) return { body: read, build };
      if (attempt > 0) return undefined;
      // Gone: a newer build replaced this one since this process read it. Look again.
      if (copy === build) copy = undefined;
      found = await current();
    }
  }

  return { current, file };
}

/** The build stored for `origin`: its date and its pages in id order (no bodies). */
async function readBuild(db: Db | Tx, origin: string) {
  const rows = await db
    .select({
      name: sitemapFile.name,
      from: sitemapFile.fromId,
      to: sitemapFile.toId,
      builtAt: sitemapFile.builtAt,
    })
    .from(sitemapFile)
    .where(eq(sitemapFile.origin, origin))
    .orderBy(sitemapFile.fromId);
  const index = rows.find((row) => row.name === INDEX);
  if (!index) return undefined;
  const pages = rows.flatMap((row) =>
    row.name !== INDEX && row.from && row.to
      ? [{ name: row.name, from: row.from, to: row.to }]
      : [],
  );
  return { builtAt: index.builtAt.getTime(), pages };
}

async function readBody(db: Db, origin: string, name: string, builtAt: number) {
  const [row] = await db
    .select({ body: sitemapFile.body })
    .from(sitemapFile)
    .where(
      and(
        eq(sitemapFile.origin, origin),
        eq(sitemapFile.name, name),
        eq(sitemapFile.builtAt, new Date(builtAt)),
      ),
    );
  return row?.body;
}
