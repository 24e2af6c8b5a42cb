import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CarSitemapQuerySchema } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { authorize } from '../../lib/policy.ts';
import { robotsTxt } from './robots.ts';
import { seoPolicy } from './seo.policy.ts';
import {
  CARS_PER_SITEMAP,
  carSitemap,
  carSitemapPages,
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
}

/** Crawlers come back daily at most; an hour's cache spares the database their repeats. */
const CACHE = 'public, max-age=3600';
const XML = 'application/xml; charset=utf-8';

/** robots.txt and the sitemaps (sitemaps.org) for search engines, at the site's root. */
export const seoRoutes: FastifyPluginAsyncZod<SeoOptions> = async (app, options) => {
  const { db, siteOrigin, browseSignedOut } = options;
  const perPage = options.carsPerSitemap ?? CARS_PER_SITEMAP;
  const paths = prerenderedPaths(options.webDistDir);

  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('cache-control', CACHE)
      .type('text/plain; charset=utf-8')
      .send(robotsTxt({ origin: siteOrigin(), browseSignedOut })),
  );

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const carPages = seoPolicy.canListCars({ browseSignedOut }).ok
      ? await carSitemapPages(db, perPage)
      : [];
    return reply
      .header('cache-control', CACHE)
      .type(XML)
      .send(sitemapIndex(siteOrigin(), carPages));
  });

  app.get('/sitemap-pages.xml', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('cache-control', CACHE)
      .type(XML)
      .send(await pagesSitemap(db, { origin: siteOrigin(), paths, browseSignedOut })),
  );

  app.get(
    '/sitemap-cars.xml',
    { schema: { hide: true, querystring: CarSitemapQuerySchema } },
    async (request, reply) => {
      authorize(seoPolicy.canListCars({ browseSignedOut }));
      // Written as the cars are read, a batch at a time; never the whole page in one string.
      const xml = carSitemap(db, { origin: siteOrigin(), from: request.query.from, perPage });
      return reply.header('cache-control', CACHE).type(XML).send(Readable.from(xml));
    },
  );
};
