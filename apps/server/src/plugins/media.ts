import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isValidStorageKey, type Storage } from '../adapters/storage.ts';

/** Images from storage under `/media/<key>`: right type, no sniffing, cached for a year. */
export const mediaPlugin = fp(async (app: FastifyInstance, { storage }: { storage: Storage }) => {
  app.get<{ Params: { key: string } }>(
    '/media/:key',
    { schema: { hide: true } },
    async (request, reply) => {
      const { key } = request.params;
      const object = isValidStorageKey(key) ? await storage.get(key) : null;
      if (!object) {
        return reply.status(404).send({ error: { code: 'not-found', message: 'No such image.' } });
      }
      return reply
        .header('content-type', object.contentType)
        .header('content-length', String(object.size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(object.body);
    },
  );
});
