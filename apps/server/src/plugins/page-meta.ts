import {
  BODY_TYPES,
  formatMoney,
  FUEL_LABELS,
  FUELS,
  isKnownMake,
  isKnownModel,
  ListingDetailSchema,
  OTHER,
  TRANSMISSION_LABELS,
  TRANSMISSIONS,
  type ListingDetail,
  type ListingStatus,
} from '@carmarket/shared';

/** The site's name in titles and shared links (as in the web app's config/site.ts). */
export const SITE_NAME = 'CarMarket';

/** What a page's head says about the site it is on. */
export interface Site {
  /** PUBLIC_URL's origin, or the server's own (lib/site-origins.ts): never a request's Host. */
  origin: string;
  name: string;
}

/** A server-rendered page's head: its title and description, and the tags that follow them. */
export interface PageHead {
  title: string;
  description: string;
  /** Canonical link, Open Graph and Twitter tags, JSON-LD: ready to go before `</head>`. */
  tags: string;
}

/**
 * An API answer the page rendered with, by its path without the query (`/api/listings/<id>`,
 * `/api/category/<id>`); undefined if it was not asked or did not answer 200.
 */
export type AnswerOf = (apiPath: string) => unknown;

/**
 * The head of a search, category or car page, built from the API answers its render used, so
 * a link pasted in a chat shows the car and a search engine reads its price (issue 33). The title
 * and description replace the ones the web app rendered; the tags are added. Undefined for other
 * pages, and for a car page whose car did not come back (the app then shows "not found").
 */
export function pageHeadFor(url: string, answerOf: AnswerOf, site: Site): PageHead | undefined {
  const { pathname: asked, searchParams } = new URL(url, 'http://page.invalid');
  const pathname = asked.length > 1 ? asked.replace(/\/+$/, '') : asked;
  const car = idAfter('/listing/', pathname);
  if (car !== undefined) {
    const parsed = ListingDetailSchema.safeParse(answerOf(`/api/listings/${car}`));
    return parsed.success ? carHead(parsed.data, site) : undefined;
  }
  const category = idAfter('/category/', pathname);
  if (category !== undefined) {
    const id = decodeURIComponent(category);
    const answer = answerOf(`/api/category/${category}`) as { name?: unknown } | undefined;
    const name = typeof answer?.name === 'string' ? answer.name : undefined;
    return searchHead(searchParams, { id, name }, site);
  }
  if (pathname === '/cars') {
    const id = searchParams.get('category');
    return searchHead(searchParams, id ? { id } : undefined, site);
  }
  return undefined;
}

/** The id in `/listing/<id>` as the web app's API paths encode it; undefined for other paths. */
function idAfter(prefix: string, pathname: string): string | undefined {
  const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : '';
  if (!rest || rest.includes('/')) return undefined;
  try {
    return encodeURIComponent(decodeURIComponent(rest));
  } catch {
    return undefined;
  }
}

/** The canonical link of a prerendered public page (home, blog). */
export function canonicalTag(site: Site, pathname: string): string {
  return `<link rel="canonical" href="${escapeAttribute(`${site.origin}${pathname}`)}">`;
}

// ---- car pages ----

/**
 * What a car's status says to search engines. A reserved car is held only while one buyer's card
 * is confirmed (minutes) and stays listed, so it is limited, not gone; a sold or withdrawn car's
 * page stays up and says so (noindex), a removed one is seen only by its seller and admins.
 */
const AVAILABILITY: Record<ListingStatus, string> = {
  available: 'https://schema.org/InStock',
  reserved: 'https://schema.org/LimitedAvailability',
  sold: 'https://schema.org/SoldOut',
  withdrawn: 'https://schema.org/Discontinued',
  removed: 'https://schema.org/Discontinued',
};

/** A car no longer for sale, whose page says so (issue 32). */
const ended = (status: ListingStatus) =>
  status === 'sold' || status === 'withdrawn' || status === 'removed';

/** Miles beside US dollars and pounds sterling, kilometres otherwise (decision 013). */
const MILE_CURRENCIES = new Set(['USD', 'GBP']);
const KM_PER_MILE = 1.609344;
const wholeNumber = new Intl.NumberFormat('en-US');

function mileageOf(car: ListingDetail) {
  if (car.mileageKm === null) return undefined;
  const miles = MILE_CURRENCIES.has(car.currency.toUpperCase());
  const value = Math.round(miles ? car.mileageKm / KM_PER_MILE : car.mileageKm);
  return {
    value,
    text: `${wholeNumber.format(value)} ${miles ? 'mi' : 'km'}`,
    // UN/CEFACT codes, as schema.org's QuantitativeValue takes them.
    unitCode: miles ? 'SMI' : 'KMT',
    unitText: miles ? 'mi' : 'km',
  };
}

/** "14500.00": minor units as major ones, as schema.org and Open Graph prices are written. */
function decimalPrice(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(Math.abs(cents % 100)).padStart(2, '0')}`;
}

/** The start of a text, cut at a word, in at most `max` characters. */
function excerpt(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/** A photo URL as another site can fetch it: our own paths get the site's origin. */
function absolute(site: Site, url: string): string {
  return /^https?:\/\//.test(url) ? url : `${site.origin}${url.startsWith('/') ? '' : '/'}${url}`;
}

const known = (value: string) => (value && value !== OTHER ? value : undefined);

function carHead(car: ListingDetail, site: Site): PageHead {
  const url = `${site.origin}/listing/${encodeURIComponent(car._id)}`;
  const price = formatMoney(car.reprice, car.currency);
  // Sellers name cars "Toyota Corolla LE"; a name that starts with its year keeps it once.
  const named = car.name.startsWith(String(car.year)) ? car.name : `${car.year} ${car.name}`;
  const heading = `${named} - ${price}`;
  const mileage = mileageOf(car);
  // "2019 Toyota Corolla LE with 23,861 mi, for sale in Fresno, CA. One owner, ..."
  const state =
    car.status === 'sold' ? 'sold' : ended(car.status) ? 'no longer for sale' : 'for sale';
  const description = excerpt(
    `${named}${mileage ? ` with ${mileage.text}` : ''}, ${state} in ${car.location}. ${car.description}`,
    200,
  );
  const photo = car.images[0];
  const image = photo ? absolute(site, photo.url) : undefined;
  const priceValue = decimalPrice(car.reprice);

  const make = known(car.make);
  const model = known(car.model);
  const structured = {
    '@context': 'https://schema.org',
    '@type': 'Car',
    name: car.name,
    description: excerpt(car.description, 500),
    url,
    ...(car.images.length > 0 && { image: car.images.map((each) => absolute(site, each.url)) }),
    ...(make && {
      brand: { '@type': 'Brand', name: make },
      manufacturer: { '@type': 'Organization', name: make },
    }),
    ...(model && { model }),
    vehicleModelDate: String(car.year),
    ...(mileage && {
      mileageFromOdometer: {
        '@type': 'QuantitativeValue',
        value: mileage.value,
        unitCode: mileage.unitCode,
        unitText: mileage.unitText,
      },
    }),
    ...(car.vin && { vehicleIdentificationNumber: car.vin }),
    ...(car.bodyType && { bodyType: car.bodyType }),
    ...(car.fuel && car.fuel !== 'other' && { fuelType: FUEL_LABELS[car.fuel] }),
    ...(car.transmission && { vehicleTransmission: TRANSMISSION_LABELS[car.transmission] }),
    ...(car.colour && car.colour !== OTHER && { color: car.colour }),
    itemCondition: 'https://schema.org/UsedCondition',
    offers: {
      '@type': 'Offer',
      price: priceValue,
      priceCurrency: car.currency,
      availability: AVAILABILITY[car.status],
      itemCondition: 'https://schema.org/UsedCondition',
      url,
      seller: { '@type': 'Person', name: car.seller },
    },
  };

  const tags = [
    // Shown to whoever follows a saved link (issue 32), but not a page for search engines to list.
    ...(ended(car.status) ? [meta('name', 'robots', 'noindex')] : []),
    canonicalTag(site, `/listing/${encodeURIComponent(car._id)}`),
    meta('property', 'og:type', 'product'),
    meta('property', 'og:site_name', site.name),
    meta('property', 'og:title', heading),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
    ...(photo && image
      ? [
          meta('property', 'og:image', image),
          meta('property', 'og:image:width', String(photo.width)),
          meta('property', 'og:image:height', String(photo.height)),
          meta('property', 'og:image:alt', `Photo of the ${car.name}`),
        ]
      : []),
    meta('property', 'product:price:amount', priceValue),
    meta('property', 'product:price:currency', car.currency),
    meta('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', heading),
    meta('name', 'twitter:description', description),
    ...(image
      ? [
          meta('name', 'twitter:image', image),
          meta('name', 'twitter:image:alt', `Photo of the ${car.name}`),
        ]
      : []),
    jsonLd(structured),
  ];
  return { title: `${heading} - ${site.name}`, description, tags: tags.join('\n    ') };
}

// ---- search and category pages ----

/**
 * The filters a search's canonical URL keeps: those that name a kind of car (a make, a model, a
 * body, a fuel, a gearbox), with values this site knows, each sorted. Everything else (words,
 * price, year and mileage ranges, places, sorting, pages, tracking tags) gives the same cars in
 * another order or a slice of them, and would make endless addresses of one page (decision 030).
 */
const CANONICAL_FILTERS: readonly {
  name: string;
  keep: (value: string, params: URLSearchParams) => boolean;
}[] = [
  { name: 'make', keep: (value) => value !== OTHER && isKnownMake(value) },
  {
    name: 'model',
    keep: (value, params) =>
      value !== OTHER && params.getAll('make').some((make) => isKnownModel(make, value)),
  },
  { name: 'bodyType', keep: (value) => (BODY_TYPES as readonly string[]).includes(value) },
  { name: 'fuel', keep: (value) => (FUELS as readonly string[]).includes(value) },
  { name: 'transmission', keep: (value) => (TRANSMISSIONS as readonly string[]).includes(value) },
];

/** The canonical path of a search (`/cars?...`), or of a category page when one is chosen. */
export function canonicalSearchPath(params: URLSearchParams, categoryId?: string): string {
  const kept = new URLSearchParams();
  for (const { name, keep } of CANONICAL_FILTERS) {
    const values = [...new Set(params.getAll(name))].filter((value) => keep(value, params));
    for (const value of values.sort()) kept.append(name, value);
  }
  const query = kept.size > 0 ? `?${kept.toString()}` : '';
  return categoryId ? `/category/${encodeURIComponent(categoryId)}${query}` : `/cars${query}`;
}

function searchHead(
  params: URLSearchParams,
  category: { id: string; name?: string } | undefined,
  site: Site,
): PageHead {
  const path = canonicalSearchPath(params, category?.id);
  const canonical = new URLSearchParams(path.split('?')[1] ?? '');
  const makes = canonical.getAll('make');
  const models = canonical.getAll('model');
  // "Toyota Corolla", "Toyota", or nothing when several makes (or none) are chosen.
  const kind =
    makes.length === 1 ? [makes[0], models.length === 1 ? models[0] : undefined] : undefined;
  const what = kind ? kind.filter(Boolean).join(' ') : '';
  const forSale = kind ? `used ${what} for sale` : 'used cars for sale';
  const title = category?.name
    ? `${category.name} - ${forSale}`
    : `${forSale[0]!.toUpperCase()}${forSale.slice(1)}`;
  const description = category?.name
    ? `${category.name}: ${forSale} on ${site.name}, with photos, prices and mileage. Book the one you like and pay by card.`
    : `${title} on ${site.name}, with photos, prices and mileage. Book the one you like and pay by card.`;
  const url = `${site.origin}${path}`;
  const tags = [
    canonicalTag(site, path),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', site.name),
    meta('property', 'og:title', title),
    meta('property', 'og:description', description),
    meta('property', 'og:url', url),
  ];
  return { title: `${title} - ${site.name}`, description, tags: tags.join('\n    ') };
}

// ---- markup ----

/** Text for a double-quoted attribute. */
function escapeAttribute(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

function meta(kind: 'name' | 'property', key: string, content: string): string {
  return `<meta ${kind}="${key}" content="${escapeAttribute(content)}">`;
}

/**
 * Structured data: data, not script, so the CSP (`script-src 'self'`) allows it. Every `<` is
 * written `\u003c`, as in the page's data block, so nothing in a car's text can end the block.
 */
function jsonLd(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value).replaceAll('<', '\\u003c')}</script>`;
}
