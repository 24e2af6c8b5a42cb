import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody, ErrorCode } from '@carmarket/shared';
import { isConnectionLost, isGoneReference, isInputError } from '../lib/db-errors.ts';
import { AppError } from '../lib/errors.ts';

/** Fastify's own errors that the client caused, and how we name them. */
const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'unsupported-media-type',
    message: 'Send the body as application/json.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'payload-too-large',
    message: 'The request body is too large.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'bad-request',
    message: 'The JSON body is empty.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'bad-request',
    message: 'The body is not valid JSON.',
  },
};

function body(code: string, message: string, extra: object = {}): ApiErrorBody {
  return { error: { code, message, ...extra } };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Names the client's form gives this route's inputs, by where they come: `{ querystring: { name: 'category' } }`. */
    fieldNames?: Partial<Record<string, Record<string, string>>>;
  }
}

/** One error shape for the whole API: `{ "error": { "code", "message" } }`. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.extra.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(error.extra.retryAfterSeconds));
      }
      return reply.status(error.statusCode).send(body(error.code, error.message, error.extra));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const where = error.validationContext ?? 'body';
      let path = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
      // One value of a repeated query parameter (`fuel=coal&fuel=petrol`) is that parameter.
      if (where === 'querystring') path = path.replace(/\.\d+$/, '');
      // A route may name its inputs as the form does (`?name=` of `POST /product` is `category`).
      const field = request.routeOptions.config.fieldNames?.[where]?.[path] ?? (path || where);
      // The schemas' messages are written for people ("Price is required"); the field rides along.
      const message = first?.message ?? `${field} is invalid`;
      return reply.status(400).send(body('validation-failed', message, { field }));
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return reply.status(known.status).send(body(known.code, known.message));
    if (error.statusCode === 429) {
      return reply.status(429).send(body('too-many-requests', error.message));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.status(error.statusCode).send(body('bad-request', error.message));
    }
    if (isConnectionLost(error)) {
      request.log.warn({ err: error }, 'the database connection was lost');
      return reply
        .status(503)
        .send(body('unavailable', 'The service is briefly unavailable. Please try again.'));
    }
    if (isInputError(error)) {
      // A value the schemas let through but the database cannot take: the request's fault.
      request.log.warn({ err: error }, 'the database refused a value of the request');
      return reply
        .status(400)
        .send(
          body('validation-failed', 'A value you sent cannot be stored. Check it and try again.'),
        );
    }
    if (isGoneReference(error)) {
      request.log.warn({ err: error }, 'a row the request refers to went while it ran');
      return reply
        .status(409)
        .send(
          body(
            'conflict',
            'Something this refers to was removed a moment ago. Reload the page and try again.',
          ),
        );
    }
    request.log.error({ err: error, requestId: request.id }, 'request failed');
    reply.header('x-request-id', request.id);
    return reply.status(500).send(
      body('internal', 'Something went wrong on our side. Please try again.', {
        requestId: request.id,
      }),
    );
  });
});
