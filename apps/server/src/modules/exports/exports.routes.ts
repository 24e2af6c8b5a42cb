import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, DATA_EXPORTS_PER_DAY } from '@carmarket/shared';
import type { Storage } from '../../adapters/storage.ts';
import type { Db } from '../../db/client.ts';
import { formatWait, spend, type CounterStore, type Limit } from '../../lib/rate-limit.ts';
import { downloadsEndedAtClose } from '../../lib/downloads.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { dataExport } from './data-export.service.ts';
import { exportPolicy } from './exports.policy.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Download my data", at most DATA_EXPORTS_PER_DAY a day for each person (decision 042). */
export const dataExportLimit = (userId: string): Limit => ({
  key: `data-export:${userId}`,
  max: DATA_EXPORTS_PER_DAY,
  windowMs: DAY_MS,
  message: (seconds) =>
    `You can download your data ${DATA_EXPORTS_PER_DAY} times a day. Try again in ${formatWait(seconds)}.`,
});

export const exportRoutes: FastifyPluginAsyncZod<{
  db: Db;
  storage: Storage;
  counters: CounterStore;
}> = async (app, { db, storage, counters }) => {
  const endedAtClose = downloadsEndedAtClose(app);
  app.get(
    '/my/data-export',
    {
      preValidation: [app.authenticate, guard(exportPolicy.canExportOwnData)],
      schema: {
        security: [{ session: [] }, { bearer: [] }],
        tags: ['users'],
        summary: `Download my data: a ZIP of everything of mine (${DATA_EXPORTS_PER_DAY} a day)`,
        description:
          'A ZIP, streamed: `manifest.json`, then one JSON file per kind (profile, cars, bookings, payments, payouts, ledger lines, conversations, saved cars and searches, sign-in devices), then the photos of my cars under `photos/`. Never a password, a token, or another person’s email. 429 with Retry-After past the daily limit.',
        produces: ['application/zip'],
        // The body is a ZIP, never serialized.
        response: { 200: z.unknown(), ...errorResponses, 429: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      const giveBack = await spend(counters, [dataExportLimit(actor.id)]);
      const zip = endedAtClose(
        dataExport({ db, storage }, actor.id, (error) => {
          request.log.error({ err: error }, 'a data export failed while it was sent');
          // A download cut short does not count against the day's.
          void giveBack();
        }),
      );
      const stamp = new Date().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="carmarket-my-data-${stamp}.zip"`)
        .header('cache-control', 'no-store')
        .send(zip);
    },
  );
};
