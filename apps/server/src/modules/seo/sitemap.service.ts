import fs from 'node:fs';
import path from 'node:path';
import { and, asc, gt } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { category, listing, ON_SALE_SQL } from '../../db/schema.ts';

/** The sitemaps protocol's limit of URLs in one sitemap (sitemaps.org). */
export const CARS_PER_SITEMAP = 50_000;
/** Cars read per query while the car sitemaps are built: a few hundred kilobytes of XML a batch. */
const CARS_PER_BATCH = 5_000;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const XML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!);

/** W3C datetime to the second, as sitemaps write it. */
const w3cDate = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

const urlEntry = (loc: string, lastmod?: Date) =>
  `<url><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${w3cDate(lastmod)}</lastmod>` : ''}</url>\n`;

/** One car sitemap: its first and last car (the index names both) and its newest change. */
export interface CarSitemapPage {
  from: string;
  to: string;
  lastmod: Date;
}

export interface CarSitemapOptions {
  origin: string;
  perPage: number;
  /** Cars a query (5,000). */
  batch?: number;
}

/**
 * Every car sitemap with its XML: cars on sale (available, and reserved, which stay listed and
 * can be found) read in id order by keyset, a batch a query, cut every `perPage`. One pass over
 * the cars, no OFFSET; one page's XML (about 6 MB at 50,000 cars) is held at a time.
 */
export async function* carSitemaps(
  db: Db | Tx,
  options: CarSitemapOptions,
): AsyncGenerator<CarSitemapPage & { xml: string }> {
  const batch = options.batch ?? CARS_PER_BATCH;
  let page: (CarSitemapPage & { entries: string[] }) | undefined;
  const whole = (full: CarSitemapPage & { entries: string[] }) => ({
    from: full.from,
    to: full.to,
    lastmod: full.lastmod,
    xml: `${XML_HEAD}<urlset xmlns="${NAMESPACE}">\n${full.entries.join('')}</urlset>\n`,
  });
  let after: string | undefined;
  for (;;) {
    const rows = await db
      .select({ id: listing.id, updatedAt: listing.updatedAt })
      .from(listing)
      .where(and(ON_SALE_SQL, after === undefined ? undefined : gt(listing.id, after)))
      .orderBy(asc(listing.id))
      .limit(batch);
    for (const row of rows) {
      page ??= { from: row.id, to: row.id, lastmod: row.updatedAt, entries: [] };
      page.entries.push(urlEntry(`${options.origin}/listing/${row.id}`, row.updatedAt));
      page.to = row.id;
      if (row.updatedAt > page.lastmod) page.lastmod = row.updatedAt;
      if (page.entries.length === options.perPage) {
        yield whole(page);
        page = undefined;
      }
    }
    if (rows.length < batch) break;
    after = rows.at(-1)!.id;
  }
  if (page) yield whole(page);
}

/** A car sitemap's address: both ends of its range, as the index names it. */
export const carSitemapPath = (page: { from: string; to: string }) =>
  `/sitemap-cars.xml?from=${page.from}&to=${page.to}`;

/** A car sitemap of no cars: where no car is on sale. */
export const EMPTY_URLSET = `${XML_HEAD}<urlset xmlns="${NAMESPACE}">\n</urlset>\n`;

/** The sitemap index: the public pages' sitemap, then each car sitemap with its newest change. */
export function sitemapIndex(origin: string, carPages: CarSitemapPage[]): string {
  const entry = (loc: string, lastmod?: Date) =>
    `<sitemap><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${w3cDate(lastmod)}</lastmod>` : ''}</sitemap>\n`;
  return (
    `${XML_HEAD}<sitemapindex xmlns="${NAMESPACE}">\n` +
    entry(`${origin}/sitemap-pages.xml`) +
    carPages.map((page) => entry(`${origin}${carSitemapPath(page)}`, page.lastmod)).join('') +
    '</sitemapindex>\n'
  );
}

/**
 * The public pages' paths: what the web build prerendered (the home page, the blog and its posts;
 * `prerendered.json`), or the home page and the blog when the web app is not built.
 */
export function prerenderedPaths(webDistDir: string): string[] {
  try {
    const listed = JSON.parse(
      fs.readFileSync(path.join(webDistDir, 'prerendered.json'), 'utf8'),
    ) as Record<string, string>;
    const paths = Object.keys(listed).filter((p) => p.startsWith('/'));
    if (paths.length > 0) return paths;
  } catch {
    // not built: the two pages every build has
  }
  return ['/', '/blog'];
}

/**
 * The public pages' sitemap: the prerendered pages, and where people may browse signed out, the
 * search page and each category's page.
 */
export async function pagesSitemap(
  db: Db,
  options: { origin: string; paths: string[]; browseSignedOut: boolean },
): Promise<string> {
  const paths = [...options.paths];
  if (options.browseSignedOut) {
    const categories = await db
      .select({ id: category.id })
      .from(category)
      .orderBy(asc(category.position), asc(category.name));
    paths.push('/cars', ...categories.map((c) => `/category/${c.id}`));
  }
  return (
    `${XML_HEAD}<urlset xmlns="${NAMESPACE}">\n` +
    paths.map((p) => urlEntry(`${options.origin}${p}`)).join('') +
    '</urlset>\n'
  );
}
