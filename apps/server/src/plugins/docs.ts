import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * The docs page's CSP, on its routes only (@fastify/swagger-ui scopes it so). Swagger UI sets
 * style attributes as it draws, which the plugin's own policy (styles from files only) blocked
 * with a console error on every visit; like the site's (security.ts), this one lets styles be
 * inline and scripts come from our files only, with no inline script and no third party.
 */
function docsContentSecurityPolicy(secure: boolean): string {
  return [
    "default-src 'self'",
    "base-uri 'self'",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(secure ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** OpenAPI generated from the routes' zod schemas, browsable at `/api/docs`. */
export const docsPlugin = fp(async (app: FastifyInstance, { secure }: { secure: boolean }) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'CarMarket API',
        description: 'Used-car marketplace: categories, listings, bookings, payments, users.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: docsContentSecurityPolicy(secure),
    uiConfig: { docExpansion: 'list', deepLinking: true },
  });
});
