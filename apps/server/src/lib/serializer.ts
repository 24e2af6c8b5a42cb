import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * Responses are written by a serializer compiled once per route from the route's zod schema
 * (through its JSON Schema, with fast-json-stringify, as Fastify does for JSON Schema routes):
 * only the schema's properties leave the server, whatever a presenter hands over. Checking every
 * response with zod at run time cost a sixth of a busy server's CPU (decision 014); the tests
 * still check every response against its schema, so a presenter that drifts fails them.
 */
/**
 * One compiled writer per schema for the whole process: compiling is most of what building an
 * app costs (~0.5 s for every route's schema), and apps built in one process (a test run's
 * test apps, a restart in place) share the route modules' schema objects.
 */
const writers = new WeakMap<z.ZodType, (data: unknown) => string>();

function writerOf(schema: z.ZodType): (data: unknown) => string {
  let write = writers.get(schema);
  if (!write) {
    write = fastJson(
      z.toJSONSchema(schema, {
        io: 'output',
        target: 'draft-7',
        // Dates and the like never reach the wire as such: presenters turn them into strings.
        unrepresentable: 'any',
      }) as Parameters<typeof fastJson>[0],
    );
    writers.set(schema, write);
  }
  return write;
}

export function createResponseSerializer(options: {
  validate: boolean;
}): FastifySerializerCompiler<z.ZodType | { properties: z.ZodType }> {
  return ({ schema: given, method, url }) => {
    const schema = given instanceof z.ZodType ? given : given.properties;
    const write = writerOf(schema);
    if (!options.validate) return write;
    return (data) => {
      const checked = schema.safeParse(data);
      if (!checked.success) {
        throw new Error(`The response of ${method} ${url} does not match its schema`, {
          cause: checked.error,
        });
      }
      return write(data);
    };
  };
}
