/**
 * Prerenders public pages at build time (see scripts/prerender.mjs). Pages render as a first
 * visit would: no session and no data yet, so the home page shows its loading tiles.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';

import { AppProvider } from './app/provider';
import { AppRoutes, preloadRoute, routeFor } from './app/router';
import { posts } from './features/blog/posts';
import { PageMetaProvider, resolvePageMeta } from './lib/page';
import { createQueryClient } from './lib/query-client';

/** Every page whose HTML is written at build time. */
export const prerenderPaths: readonly string[] = [
  '/',
  '/blog',
  ...posts.map((post) => `/blog/${post.slug}`),
];

/** Source file of each prerendered route's page, for the prerender to find its chunks. */
const pageSources: Record<string, string> = {
  '/': 'src/app/routes/home.tsx',
  '/blog': 'src/app/routes/blog.tsx',
  '/blog/:slug': 'src/app/routes/blog-post.tsx',
};

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
  queryClient.clear();

  const source = pageSources[routeFor(pathname).path];
  if (!source) throw new Error(`No page source is listed for ${pathname}`);
  return { html, ...meta, source };
}
