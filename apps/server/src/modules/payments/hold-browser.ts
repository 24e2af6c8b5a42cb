import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../../lib/signing.ts';

export const HOLD_BROWSER_COOKIE = 'carmarket.browser';
const KEEP_SECONDS = 365 * 24 * 3600;
const BROWSER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The browser a hold is asked from (decision 047): a random id in a cookie of its own, sent only
 * to the payment calls, set at the first hold a browser asks for and kept a year. It names no one
 * and is not signed: a client that drops or changes it only looks like a new browser, which the
 * address and the account still tie to its holds; and nobody can read another browser's id
 * (HttpOnly) to borrow its cool-downs.
 */
export function holdBrowser(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  // Under https, a cookie only a secure page can set, as the sign-in's browser mark (012).
  const name = secure ? `__Secure-${HOLD_BROWSER_COOKIE}` : HOLD_BROWSER_COOKIE;
  const sent = readCookie(request.headers.cookie, name);
  if (sent && BROWSER_ID.test(sent)) return sent;
  const browser = randomUUID();
  reply.header(
    'set-cookie',
    [
      `${name}=${browser}`,
      `Max-Age=${KEEP_SECONDS}`,
      'Path=/api/payments',
      'HttpOnly',
      'SameSite=Lax',
      ...(secure ? ['Secure'] : []),
    ].join('; '),
  );
  return browser;
}
