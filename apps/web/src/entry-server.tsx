/**
 * Renders pages on the server. Public pages are prerendered at build time (scripts/prerender.mjs)
 * as a first visit would see them: no session and no data yet, so the home page shows its loading
 * tiles. The busiest pages behind sign-in (search, category, car, the dashboard's home) are
 * rendered per request for the person asking (apps/server/src/plugins/web.ts), with their session
 * and the page's first data, which the browser then starts from (main.tsx), so the first cards and
 * their photos are in the HTML rather than waiting for the page's code (decision 017).
 */
import type { SignInOptions } from '@carmarket/shared';
import type { QueryKey } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { matchPath, StaticRouter } from 'react-router';

import { AppProvider } from './app/provider';
import { AppRoutes, preloadRoute, routeFor } from './app/router';
import { signInOptionsPath, signInOptionsQueryKey } from './features/auth/api/get-sign-in-options';
import { isSession, sessionPath, sessionQueryKey } from './features/auth/use-session';
import { posts } from './features/blog/posts';
import { statsPath } from './features/dashboard-home/api/get-stats';
import { statsKeys } from './features/dashboard-home/api/query-keys';
import { categoryPath } from './features/listings/api/get-category';
import { listingPath } from './features/listings/api/get-listing';
import { listingKeys } from './features/listings/api/query-keys';
import { searchKeys } from './features/search/api/query-keys';
import { firstPagePath } from './features/search/api/search-cars';
import { apiQueryOf, invertedRanges, setValue } from './features/search/search-state';
import { PageMetaProvider, resolvePageMeta, type ResolvedPageMeta } from './lib/page';
import { codeInFlight } from './lib/lazy-with-preload';
import { createQueryClient } from './lib/query-client';

/** Every page whose HTML is written at build time. */
export const prerenderPaths: readonly string[] = [
  '/',
  '/blog',
  ...posts.map((post) => `/blog/${post.slug}`),
];

/** Source file of each server-rendered route's page, for the prerender to find its chunks. */
export const pageSources: Record<string, string> = {
  '/': 'src/app/routes/home.tsx',
  '/blog': 'src/app/routes/blog.tsx',
  '/blog/:slug': 'src/app/routes/blog-post.tsx',
  '/cars': 'src/app/routes/cars.tsx',
  '/category/:id': 'src/app/routes/category.tsx',
  '/listing/:id': 'src/app/routes/listing.tsx',
  '/dashboard': 'src/app/layouts/dashboard-layout.tsx',
};

/** One answer a page's first render reads: where the API gives it and where the cache keeps it. */
interface PageData {
  key: QueryKey;
  /** After `/api`. */
  path: string;
  /** Kept as the first page of an infinite query. */
  firstPage?: true;
}

/** The search's first page; none for an inverted range, which the API would only refuse. */
function searchData(params: URLSearchParams): PageData[] {
  // The page says what is wrong beside the field and sends nothing, as in the browser.
  if (Object.keys(invertedRanges((key) => params.get(key))).length) return [];
  const query = apiQueryOf(params);
  return [{ key: searchKeys.results(query), path: firstPagePath(query), firstPage: true }];
}

/**
 * Pages rendered per request for a signed-in person (or anyone, where browsing is open), and the
 * data each renders with: the same calls and cache keys its components use, so the browser's
 * first render matches the HTML.
 */
const personalPages: Record<
  string,
  (
    params: Record<string, string | undefined>,
    search: URLSearchParams,
    roles: readonly string[],
  ) => PageData[]
> = {
  '/cars': (_params, search) => searchData(search),
  '/category/:id': ({ id = '' }, search) => [
    { key: listingKeys.categoryPage(id), path: categoryPath(id) },
    ...searchData(setValue(search, 'category', id)),
  ],
  '/listing/:id': ({ id = '' }) => [{ key: listingKeys.car(id), path: listingPath(id) }],
  // Its figures, which hold the page's first lines back in the browser: session, then the
  // layout's code, then the page's, then the call (its Lighthouse LCP was ~3 s).
  '/dashboard': (_params, _search, roles) => [{ key: statsKeys.forRoles(roles), path: statsPath }],
};

/** Never rendered signed out, even where visitors may browse: the shell sends them to sign in. */
const signedInOnly = new Set(['/dashboard']);

/** Route patterns of the pages rendered per person (the prerender writes a template of each). */
export const personalPagePatterns: readonly string[] = Object.keys(personalPages);

/** The pattern of the personal page at `pathname`, if it is one (for the server's routes). */
export function personalPageFor(pathname: string): string | undefined {
  return personalPagePatterns.find((pattern) => matchPath(pattern, pathname));
}

/** Asks the API (as the person whose page this is) for a path; undefined unless it answered 200. */
export type AskApi = (path: string) => Promise<unknown>;

export interface PersonalPage extends ResolvedPageMeta {
  html: string;
  /** What the page rendered with, `[queryKey, data]` pairs, for the browser to start from. */
  data: [QueryKey, unknown][];
}

/**
 * Renders a personal page for whoever `ask` asks as; undefined for a path that is not one, or for
 * someone signed out where browsing needs an account (the server then sends the app shell, which
 * sends them to sign in). An answer that fails is left out: the page renders it loading, and the
 * browser asks again.
 */
export async function renderPersonalPage(
  url: string,
  ask: AskApi,
): Promise<PersonalPage | undefined> {
  const { pathname, searchParams } = new URL(url, 'http://render.invalid');
  const pattern = personalPageFor(pathname);
  const dataOf = pattern && personalPages[pattern];
  if (!pattern || !dataOf) return undefined;
  const session = await ask(`/api${sessionPath}`);
  let data: [QueryKey, unknown][];
  let roles: readonly string[] = [];
  if (isSession(session)) {
    roles = session.user.roles;
    // Only what the app reads of the session (use-session.ts): its token stays out of the HTML.
    const { user, session: ours } = session;
    data = [[sessionQueryKey, { user, session: { id: ours.id, expiresAt: ours.expiresAt } }]];
  } else if (signedInOnly.has(pattern)) {
    return undefined;
  } else {
    // Signed out: rendered only where the site lets people browse without an account, which the
    // sign-in options say (decision 028); the page reads them too (RequireBrowsing).
    const options = (await ask(`/api${signInOptionsPath}`)) as SignInOptions | undefined;
    if (!options?.browseSignedOut) return undefined;
    data = [
      [sessionQueryKey, null],
      [signInOptionsQueryKey, options],
    ];
  }

  const needed = dataOf(matchPath(pattern, pathname)?.params ?? {}, searchParams, roles);
  const [answers] = await Promise.all([
    Promise.all(needed.map(({ path }) => ask(`/api${path}`))),
    preloadRoute(pathname),
  ]);
  needed.forEach(({ key, firstPage }, index) => {
    const answer = answers[index];
    if (answer === undefined) return;
    data.push([key, firstPage ? { pages: [answer], pageParams: [null] } : answer]);
  });

  const queryClient = createQueryClient();
  try {
    for (const [key, value] of data) queryClient.setQueryData(key, value);
    return { ...(await renderWhole(url, queryClient)), data };
  } finally {
    // Nothing of this person's stays in the process (a cache entry would wait 5 minutes).
    queryClient.clear();
  }
}

/** The marks in a personal page's template: the prerender writes them, the server fills them. */
export const pageMarks = {
  title: '%PAGE_TITLE%',
  description: '%PAGE_DESCRIPTION%',
  html: '%PAGE_HTML%',
  data: '%PAGE_DATA%',
} as const;

/** Text for an HTML element or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/**
 * A personal page's HTML: its template with each mark filled in once (what is put in is never
 * read for marks again). The title and description are escaped, and the data has no "<" at all,
 * so neither </script> nor <!-- can end or bend its block.
 */
export function fillPersonalPage(template: string, page: PersonalPage): string {
  const values: Record<string, string> = {
    [pageMarks.title]: escapeHtml(page.title),
    [pageMarks.description]: escapeHtml(page.description),
    [pageMarks.html]: page.html,
    [pageMarks.data]: JSON.stringify(page.data).replaceAll('<', '\\u003c'),
  };
  return template.replace(/%PAGE_[A-Z]+%/g, (mark) => values[mark] ?? mark);
}

function renderApp(
  url: string,
  queryClient: ReturnType<typeof createQueryClient>,
): ResolvedPageMeta & { html: string } {
  let meta = resolvePageMeta({});
  const html = renderToString(
    <StrictMode>
      <PageMetaProvider
        report={(pageMeta) => {
          meta = pageMeta;
        }}
      >
        <AppProvider queryClient={queryClient}>
          <StaticRouter location={url}>
            <AppRoutes />
          </StaticRouter>
        </AppProvider>
      </PageMetaProvider>
    </StrictMode>,
  );
  return { html, ...meta };
}

/** React's mark of a Suspense boundary the server could not finish, left to the browser. */
const UNFINISHED_BOUNDARY = '<!--$!-->';

/**
 * Renders a page whole. A lazy part (the header's signed-in links and its messages link, the
 * dashboard's page inside its layout) suspends the first time a process renders it, while its
 * code loads, and React leaves its boundary to the browser, which reports that as an error; so the
 * render is done again once the code is in: the parts made with lazyWithPreload are waited for,
 * the others given 20 ms. A lazy part can hold another (layout, page), hence up to five tries;
 * only a process's first pages pay this. A part that fails to render on the server leaves the same
 * mark: after the last try the page goes as it is, and the browser draws that part.
 */
async function renderWhole(
  url: string,
  queryClient: ReturnType<typeof createQueryClient>,
): Promise<ResolvedPageMeta & { html: string }> {
  for (let attempt = 1; ; attempt += 1) {
    const rendered = renderApp(url, queryClient);
    if (!rendered.html.includes(UNFINISHED_BOUNDARY) || attempt === 5) return rendered;
    await Promise.all([codeInFlight(), new Promise((resolve) => setTimeout(resolve, 20))]);
  }
}

export interface RenderResult {
  /** The markup inside `#root`. */
  html: string;
  title: string;
  description: string;
  /** Source file of the page's code, as Vite's manifest names it. */
  source: string;
}

export async function render(url: string): Promise<RenderResult> {
  const pathname = new URL(url, 'http://prerender.invalid').pathname;
  await preloadRoute(pathname);

  const queryClient = createQueryClient();
  const rendered = renderApp(url, queryClient);
  queryClient.clear();

  const source = pageSources[routeFor(pathname).path];
  if (!source) throw new Error(`No page source is listed for ${pathname}`);
  return { ...rendered, source };
}
