import fs from 'node:fs';
import path from 'node:path';
import { and, asc, gt, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { category, listing, ON_SALE_SQL } from '../../db/schema.ts';

/** The sitemaps protocol's limit of URLs in one sitemap (sitemaps.org). */
export const CARS_PER_SITEMAP = 50_000;
/** Cars read per query while a car sitemap is written: a few hundred kilobytes of XML a batch. */
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

/** One car sitemap as the index names it: the id it starts from (none: the first) and its newest change. */
export interface CarSitemapPage {
  from: string | null;
  lastmod: Date;
}

/**
 * The car sitemaps' pages: cars on sale (available, and reserved, which stay listed and can be
 * found) numbered in id order and cut every `perPage`, each page named by its first car's id and
 * dated by its newest change. One pass over the cars on sale, no OFFSET.
 */
export async function carSitemapPages(db: Db, perPage: number): Promise<CarSitemapPage[]> {
  const numbered = db
    .select({
      id: listing.id,
      updatedAt: listing.updatedAt,
      n: sql<number>`row_number() over (order by ${listing.id}) - 1`.as('n'),
    })
    .from(listing)
    .where(ON_SALE_SQL)
    .as('numbered');
  const rows = await db
    .select({
      page: sql<number>`${numbered.n} / ${perPage}`.mapWith(Number),
      first: sql<string>`(array_agg(${numbered.id}) filter (where ${numbered.n} % ${perPage} = 0))[1]`,
      lastmod: sql<Date>`max(${numbered.updatedAt})`.mapWith(listing.updatedAt),
    })
    .from(numbered)
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return rows.map((row) => ({ from: row.page === 0 ? null : row.first, lastmod: row.lastmod }));
}

export interface CarSitemapOptions {
  origin: string;
  from: string | undefined;
  perPage: number;
  /** Cars a query (5,000); the bench compares a whole page in one. */
  batch?: number;
}

/**
 * The `<url>` entries of one car sitemap, from the car `from` (or the first) in id order, at most
 * `perPage`, read in batches by keyset so a page of 50,000 is never held whole.
 */
export async function* carSitemapEntries(
  db: Db,
  options: CarSitemapOptions,
): AsyncGenerator<string> {
  let after: string | undefined;
  let left = options.perPage;
  while (left > 0) {
    const limit = Math.min(options.batch ?? CARS_PER_BATCH, left);
    const rows = await db
      .select({ id: listing.id, updatedAt: listing.updatedAt })
      .from(listing)
      .where(
        and(
          ON_SALE_SQL,
          after !== undefined
            ? gt(listing.id, after)
            : options.from !== undefined
              ? gte(listing.id, options.from)
              : undefined,
        ),
      )
      .orderBy(asc(listing.id))
      .limit(limit);
    if (rows.length === 0) return;
    let chunk = '';
    for (const row of rows) chunk += urlEntry(`${options.origin}/listing/${row.id}`, row.updatedAt);
    yield chunk;
    left -= rows.length;
    if (rows.length < limit) return;
    after = rows.at(-1)!.id;
  }
}

/** A whole car sitemap, streamed: the XML head, its entries as they are read, the tail. */
export async function* carSitemap(db: Db, options: CarSitemapOptions): AsyncGenerator<string> {
  yield `${XML_HEAD}<urlset xmlns="${NAMESPACE}">\n`;
  yield* carSitemapEntries(db, options);
  yield '</urlset>\n';
}

/** The sitemap index: the public pages' sitemap, then each car sitemap with its newest change. */
export function sitemapIndex(origin: string, carPages: CarSitemapPage[]): string {
  const entry = (loc: string, lastmod?: Date) =>
    `<sitemap><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${w3cDate(lastmod)}</lastmod>` : ''}</sitemap>\n`;
  return (
    `${XML_HEAD}<sitemapindex xmlns="${NAMESPACE}">\n` +
    entry(`${origin}/sitemap-pages.xml`) +
    carPages
      .map((page) =>
        entry(`${origin}/sitemap-cars.xml${page.from ? `?from=${page.from}` : ''}`, page.lastmod),
      )
      .join('') +
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
