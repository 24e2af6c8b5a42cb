import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isClientRoute } from '@carmarket/shared';
import { canonicalTag, pageHeadFor, SITE_NAME, type Site } from './page-meta.ts';

const HASHED_ASSET = /\/assets\//;

/** The spec's short addresses of three dashboard pages, answered before any script loads. */
const PAGE_REDIRECTS: Record<string, string> = {
  '/orders': '/dashboard/orders',
  '/product': '/dashboard/add-product',
  '/myProduct': '/dashboard/my-products',
};

interface WebOptions {
  distDir: string;
  /** The site's origin (PUBLIC_URL), for canonical links and the links pages share. */
  siteOrigin: () => string;
  /** BROWSE_SIGNED_OUT: the search, category and car pages are rendered for visitors too. */
  browseSignedOut: boolean;
}

/**
 * Serves the built web app: hashed assets cached for a year, HTML always revalidated, prerendered
 * pages where the build made them, and the app shell for the client's other routes (404 for
 * paths the app does not know, so monitors and crawlers see the truth).
 */
export const webPlugin = fp(async (app: FastifyInstance, options: WebOptions) => {
  const { distDir, siteOrigin, browseSignedOut } = options;
  const shellFile = path.join(distDir, 'spa.html');
  if (!fs.existsSync(shellFile)) {
    app.log.warn({ distDir }, 'web app is not built; run `npm run build` (API only for now)');
    app.setNotFoundHandler(apiNotFound);
    return;
  }
  // Pages are small and change only with a deploy: read them once and answer from memory.
  const shell = fs.readFileSync(shellFile);
  const pages = new Map(
    Object.entries(readPrerenderedManifest(distDir)).map(([route, file]) => [
      route,
      fs.readFileSync(path.join(distDir, file)),
    ]),
  );

  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    wildcard: true,
    preCompressed: true,
    // Pages are served from memory at their clean URLs below, never as files.
    allowedPath: (pathname) => !pathname.endsWith('.html') && !pathname.endsWith('.json'),
    setHeaders(res, filePath) {
      res.header(
        'cache-control',
        HASHED_ASSET.test(filePath)
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=3600',
      );
    },
  });

  const site = (): Site => ({ origin: siteOrigin(), name: SITE_NAME });
  const personalPages = loadPersonalPages(app, distDir, site, browseSignedOut);
  // A prerendered page with its canonical link, made once per origin (known once listening).
  const withCanonical = new Map<string, { origin: string; html: string }>();
  const publicPage = (route: string, page: Buffer) => {
    const origin = siteOrigin();
    let made = withCanonical.get(route);
    if (made?.origin !== origin) {
      const link = canonicalTag(site(), route);
      made = {
        origin,
        html: page.toString('utf8').replace('</head>', () => `  ${link}\n  </head>`),
      };
      withCanonical.set(route, made);
    }
    return made.html;
  };

  const sendPage = (
    reply: FastifyReply,
    page: Buffer | string,
    status = 200,
    cacheControl = 'no-cache',
  ) =>
    reply
      .status(status)
      .header('cache-control', cacheControl)
      .type('text/html; charset=utf-8')
      .send(page);
  // Routes of their own, so the static plugin never treats `/` or `/blog/` as a folder (403
  // to a client that asks for no compression).
  for (const [route, page] of pages) {
    app.get(route, { schema: { hide: true } }, (_request, reply) =>
      sendPage(reply, publicPage(route, page)),
    );
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/') || pathname === '/api' || !isPageRequest(request)) {
      return apiNotFound(request, reply);
    }
    const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    const redirect = PAGE_REDIRECTS[normalized];
    if (redirect) {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.redirect(`${redirect}${query}`, 302);
    }
    const prerendered = pages.get(normalized);
    const page = prerendered && publicPage(normalized, prerendered);
    if (!page && personalPages && request.method === 'GET') {
      // The same address is someone's own page or the shell, by their cookie.
      reply.header('vary', 'cookie');
      const personal = await personalPages(request, reply, normalized);
      if (personal !== undefined) {
        return sendPage(reply, personal, 200, 'private, no-cache');
      }
    }
    // The shell is everyone's, but not with a cookie on it: the session renewed, or cleared, by
    // an API call made on the way to a page that could not be rendered.
    return sendPage(
      reply,
      page ?? shell,
      page || isClientRoute(normalized) ? 200 : 404,
      reply.hasHeader('set-cookie') ? 'private, no-cache' : 'no-cache',
    );
  });
});

/** What the web app's server build (dist-ssr/entry-server.js) offers the server. */
interface PageRenderer {
  personalPageFor(pathname: string): string | undefined;
  renderPersonalPage(
    url: string,
    ask: (path: string) => Promise<unknown>,
  ): Promise<RenderedPage | undefined>;
  fillPersonalPage(template: string, page: RenderedPage): string;
}

interface RenderedPage {
  html: string;
  title: string;
  description: string;
  data: unknown;
}

/**
 * The busiest pages behind sign-in (search, category, car, the dashboard's home) rendered for
 * the person asking, with their first data in the HTML (decision 017): a template per page from
 * the build, filled with what the web app's server build renders. Its data comes from our own
 * API, asked in-process with the person's cookie, so the page shows exactly what the API would
 * answer them and nothing more. Undefined where the page is not one of them, the person is not
 * signed in (and browsing signed out is closed), or rendering fails: the caller then sends the
 * app shell, which does the same in the browser.
 */
function loadPersonalPages(
  app: FastifyInstance,
  distDir: string,
  site: () => Site,
  browseSignedOut: boolean,
) {
  const rendererFile = path.join(distDir, '..', 'dist-ssr', 'entry-server.js');
  let templates: Map<string, string>;
  try {
    const listed: Record<string, string> = JSON.parse(
      fs.readFileSync(path.join(distDir, 'personal-pages.json'), 'utf8'),
    );
    templates = new Map(
      Object.entries(listed).map(([pattern, file]) => [
        pattern,
        fs.readFileSync(path.join(distDir, file), 'utf8'),
      ]),
    );
    if (!fs.existsSync(rendererFile)) throw new Error(`${rendererFile} is missing`);
  } catch (error) {
    app.log.warn(
      { err: error },
      'pages behind sign-in are not rendered on the server (the browser draws them); run `npm run build`',
    );
    return undefined;
  }
  // Loaded on the first such page, so a process that serves only the API never holds React.
  let renderer: Promise<PageRenderer> | undefined;

  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    pathname: string,
  ): Promise<string | undefined> => {
    const { cookie } = request.headers;
    // Without a cookie, rendered only where visitors may browse (decision 028); the renderer asks
    // the API as them, and renders nothing unless the sign-in options say browsing is open.
    if (!cookie && !browseSignedOut) return undefined;
    try {
      // By its real path: the page chunks import it by theirs, and a loader that kept a linked
      // path (Vitest does) would hold two copies, whose page-title context the pages never see.
      renderer ??= (
        import(pathToFileURL(fs.realpathSync(rendererFile)).href) as Promise<PageRenderer>
      ).catch((error: unknown) => {
        renderer = undefined; // the next page tries again
        throw error;
      });
      const { personalPageFor, renderPersonalPage, fillPersonalPage } = await renderer;
      const template = templates.get(personalPageFor(pathname) ?? '');
      if (!template) return undefined;
      // What the page rendered with, by path: its title, links and structured data come from it.
      const answers = new Map<string, unknown>();
      const page = await renderPersonalPage(request.url, async (apiPath) => {
        const answer = await app.inject({
          method: 'GET',
          url: apiPath,
          headers: cookie ? { cookie } : {},
          // As from the person's address: a visitor's searches count against their own (025, 028).
          remoteAddress: request.ip,
        });
        // The session's daily renewal (or its clearing) reaches the browser with the page.
        const cookies = answer.headers['set-cookie'];
        if (cookies) reply.header('set-cookie', cookies);
        const body: unknown = answer.statusCode === 200 ? answer.json() : undefined;
        answers.set(apiPath.split('?')[0]!, body);
        return body;
      });
      if (!page) return undefined;
      const head = pageHeadFor(request.url, (apiPath) => answers.get(apiPath), site());
      if (!head) return fillPersonalPage(template, page);
      const { title, description, tags } = head;
      // The head's tags go before the first </head>, the template's own (the markup comes after).
      return fillPersonalPage(template, { ...page, title, description }).replace(
        '</head>',
        () => `  ${tags}\n  </head>`,
      );
    } catch (error) {
      request.log.error({ err: error }, 'could not render the page; sending the app shell');
      return undefined;
    }
  };
}

function isPageRequest(request: FastifyRequest): boolean {
  return request.method === 'GET' || request.method === 'HEAD';
}

async function apiNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({
    error: {
      code: 'not-found',
      message: `No route for ${request.method} ${request.url.split('?')[0]}`,
    },
  });
}

function readPrerenderedManifest(distDir: string): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(path.join(distDir, 'prerendered.json'), 'utf8'));
  } catch {
    return {};
  }
}
