import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isClientRoute } from '@carmarket/shared';

const HASHED_ASSET = /\/assets\//;

/** The spec's short addresses of three dashboard pages, answered before any script loads. */
const PAGE_REDIRECTS: Record<string, string> = {
  '/orders': '/dashboard/orders',
  '/product': '/dashboard/add-product',
  '/myProduct': '/dashboard/my-products',
};

/**
 * Serves the built web app: hashed assets cached for a year, HTML always revalidated, prerendered
 * pages where the build made them, and the app shell for the client's other routes (404 for
 * paths the app does not know, so monitors and crawlers see the truth).
 */
export const webPlugin = fp(async (app: FastifyInstance, { distDir }: { distDir: string }) => {
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

  const sendPage = (reply: FastifyReply, page: Buffer, status = 200) =>
    reply
      .status(status)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(page);
  // Routes of their own, so the static plugin never treats `/` or `/blog/` as a folder (403
  // to a client that asks for no compression).
  for (const [route, page] of pages) {
    app.get(route, { schema: { hide: true } }, (_request, reply) => sendPage(reply, page));
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
    const page = pages.get(normalized);
    return sendPage(reply, page ?? shell, page || isClientRoute(normalized) ? 200 : 404);
  });
});

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
