import { createGunzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CarSitemapQuerySchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import { AppError } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import { addressKey } from '../../lib/proxy-trust.ts';
import { formatWait, spend, type CounterStore } from '../../lib/rate-limit.ts';
import { robotsTxt } from './robots.ts';
import { seoPolicy } from './seo.policy.ts';
import { createSitemapFiles, EMPTY_URLSET_GZIP, type StoredPage } from './sitemap-files.ts';
import {
  CARS_PER_SITEMAP,
  carSitemapPath,
  pagesSitemap,
  prerenderedPaths,
  sitemapIndex,
} from './sitemap.service.ts';

export interface SeoOptions {
  db: Db;
  /** The site's own origin (PUBLIC_URL): sitemaps and robots.txt name absolute URLs. */
  siteOrigin: () => string;
  browseSignedOut: boolean;
  /** The built web app, whose prerendered pages are the public ones. */
  webDistDir: string;
  /** Cars per car sitemap: the protocol's 50,000 unless a test proves the paging with fewer. */
  carsPerSitemap?: number;
  /** How long a build of the car sitemaps is served before the next (SITEMAP_REBUILD_MINUTES). */
  rebuildMs: number;
  /** Sitemap requests one address may make a minute (SITEMAP_LIMIT_PER_MINUTE). */
  perMinute: number;
  counters: CounterStore;
  background: BackgroundWork;
  /** The clock builds are dated by; tests move it past the interval. */
  now?: () => number;
}

/** Crawlers come back daily at most; an hour's cache spares the database their repeats. */
const CACHE = 'public, max-age=3600';
/** Where a range is sent moves with every build (decision 045): asked again each time. */
const REDIRECT_CACHE = 'no-cache';
const XML = 'application/xml; charset=utf-8';

/**
 * Whether the client takes gzip: `Accept-Encoding` names it without `q=0`, or, not naming it,
 * has `*` without `q=0` (RFC 9110 12.5.3: `gzip;q=0, *` refuses gzip).
 */
function acceptsGzip(request: FastifyRequest): boolean {
  const weights = new Map<string, number>();
  for (const part of (request.headers['accept-encoding'] ?? '').split(',')) {
    const [coding = '', ...params] = part.split(';').map((item) => item.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    weights.set(coding, q === undefined ? 1 : Number(q.slice(2)));
  }
  return (weights.get('gzip') ?? weights.get('*') ?? 0) > 0;
}

/** A page read between two builds: gone from the database, its new build not yet read. */
const rebuilt = () =>
  new AppError(503, 'unavailable', 'The sitemaps were just rebuilt. Please try again.', {
    retryAfterSeconds: 1,
  });

/** A stored sitemap as it is: gzipped when the client takes it, else unzipped as it is sent. */
function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  { body, builtAt }: { body: Buffer; builtAt: number },
) {
  reply
    .header('cache-control', CACHE)
    .header('vary', 'accept-encoding')
    .header('last-modified', new Date(builtAt).toUTCString())
    .type(XML);
  if (acceptsGzip(request)) return reply.header('content-encoding', 'gzip').send(body);
  const plain = createGunzip();
  plain.end(body);
  return reply.send(plain);
}

/**
 * robots.txt and the sitemaps (sitemaps.org) for search engines, at the site's root. The index
 * and the car sitemaps are built once per interval across processes and served as built
 * (decision 045); every sitemap is counted against its address's minute.
 */
export const seoRoutes: FastifyPluginAsyncZod<SeoOptions> = async (app, options) => {
  const { db, siteOrigin, browseSignedOut, counters, perMinute } = options;
  const paths = prerenderedPaths(options.webDistDir);
  const files = createSitemapFiles({
    db,
    origin: siteOrigin,
    perPage: options.carsPerSitemap ?? CARS_PER_SITEMAP,
    rebuildMs: options.rebuildMs,
    now: options.now ?? Date.now,
    background: options.background,
    log: app.log,
  });

  /** A crawler reads a few sitemaps a day; a flood of them is refused before it costs a read. */
  const limited = {
    onRequest: async (request: FastifyRequest) => {
      await spend(
        counters,
        [
          {
            key: `sitemap:${addressKey(request.ip)}`,
            max: perMinute,
            windowMs: 60_000,
            message: (seconds) =>
              `Too many sitemap requests from your address. Please try again in ${formatWait(seconds)}.`,
          },
        ],
        { unavailable: 'The sitemaps are unavailable for a moment. Please try again shortly.' },
      );
    },
  };

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('cache-control', CACHE)
      .type('text/plain; charset=utf-8')
      .send(robotsTxt({ origin: siteOrigin(), browseSignedOut })),
  );

  app.get('/sitemap.xml', { schema: { hide: true }, ...limited }, async (request, reply) => {
    if (!seoPolicy.canListCars({ browseSignedOut }).ok) {
      return reply.header('cache-control', CACHE).type(XML).send(sitemapIndex(siteOrigin(), []));
    }
    const index = await files.file('index');
    if (!index) throw rebuilt();
    return sendStored(request, reply, { body: index.body, builtAt: index.build.builtAt });
  });

  app.get('/sitemap-pages.xml', { schema: { hide: true }, ...limited }, async (_request, reply) =>
    reply
      .header('cache-control', CACHE)
      .type(XML)
      .send(await pagesSitemap(db, { origin: siteOrigin(), paths, browseSignedOut })),
  );

  app.get(
    '/sitemap-cars.xml',
    { schema: { hide: true, querystring: CarSitemapQuerySchema }, ...limited },
    async (request, reply) => {
      authorize(seoPolicy.canListCars({ browseSignedOut }));
      const { pages, builtAt } = await files.current();
      const from = request.query.from?.toLowerCase();
      const to = request.query.to?.toLowerCase();
      // The page holding `from`: the last that starts at or before it (none given: the first).
      const holding = (of: StoredPage[]) =>
        (from === undefined ? undefined : of.findLast((p) => p.from <= from)) ?? of[0];
      const named = (p: StoredPage) => (from ?? p.from) === p.from && (to ?? p.to) === p.to;
      // Any other range (an old link, a made-up one) is sent to the stored page: never a scan.
      const redirect = (p: StoredPage) =>
        reply.header('cache-control', REDIRECT_CACHE).redirect(carSitemapPath(p), 302);
      const page = holding(pages);
      if (!page) return sendStored(request, reply, { body: EMPTY_URLSET_GZIP, builtAt });
      if (!named(page)) return redirect(page);
      const file = await files.file(page.name);
      if (!file) throw rebuilt();
      // A newer build may have been read meanwhile, in which this name covers other cars.
      const { pages: read, builtAt: readAt } = file.build;
      const served = read.find((p) => p.name === page.name);
      if (!served || !named(served)) return redirect(holding(read) ?? page);
      return sendStored(request, reply, { body: file.body, builtAt: readAt });
    },
  );
};
