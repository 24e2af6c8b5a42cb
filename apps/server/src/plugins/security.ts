import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config.ts';

/**
 * The headers helmet's middleware sets for these options, worked out once: they depend on the
 * configuration only (no nonces), and building the middleware on every request (as
 * @fastify/helmet did) took 7% of a busy server's CPU (decision 018).
 */
function headersOf(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string | number) =>
      headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return [...headers];
}

/** Security headers. The CSP allows our own scripts only: no inline script, no third party. */
export const securityPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  // Stripe Elements loads Stripe.js and its card frames from Stripe, on the payment page only.
  const stripe = config.PAYMENT_PROVIDER === 'stripe';
  const headers = headersOf({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(stripe ? ['https://js.stripe.com'] : [])],
        // React sets style attributes (e.g. widths of progress bars); styles cannot run code.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...(stripe ? ['https://api.stripe.com'] : [])],
        frameSrc: stripe ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS over plain HTTP would break a LAN install; send it only when served over HTTPS.
    strictTransportSecurity: config.secure
      ? { maxAge: 15_552_000, includeSubDomains: true }
      : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  headers.push(['permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(self)']);

  // On the raw response, as helmet sets them: a stream that takes the socket over (the live
  // messages) sends them too. A route may still set its own (the media's stricter CSP).
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
});
