import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ADMIN_EXPORT_TABLES,
  AcknowledgedCountSchema,
  AcknowledgedSchema,
  AdminUserListSchema,
  AllUsersQuerySchema,
  AuditListSchema,
  IdParamsSchema,
  RemoveListingSchema,
  UserCarsSchema,
} from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import type { DomainEvents } from '../../lib/events.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { adminPolicy } from './admin.policy.ts';
import { presentAdminUser, presentAuditEntry } from './admin.presenter.ts';
import type { Mailer } from '../../adapters/mail.ts';
import {
  carsOfUser,
  deleteUser,
  listAudit,
  listUsers,
  removeListing,
  verifySeller,
} from './admin.service.ts';
import { presentMyListing } from '../listings/listings.presenter.ts';
import { errorResponses } from '../../lib/route-schemas.ts';
import { tableCsv } from './admin-exports.ts';
import { downloadsEndedAtClose } from '../../lib/downloads.ts';
import { z } from 'zod';

export const adminRoutes: FastifyPluginAsyncZod<{
  db: Db;
  /** Where a removed car or a deleted account is told (decision 026). */
  events: DomainEvents;
  mailer: Mailer;
  /** DELETED_ACCOUNT_HOLD_DAYS: how long a deleted account keeps its address. */
  holdDays: number;
}> = async (app, { db, events, mailer, holdDays }) => {
  const adminOnly = [app.authenticate, guard(adminPolicy.canAdminister)];

  app.get(
    '/all/user',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary:
          'Users (admins); `role`, `q` (name or email), `page`, `pageSize`; total in X-Total-Count',
        querystring: AllUsersQuerySchema,
        response: { 200: AdminUserListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { rows, total } = await listUsers(db, request.query);
      reply.header('x-total-count', String(total)).header('cache-control', 'no-store');
      return rows.map(presentAdminUser);
    },
  );

  app.put(
    '/user/verify/:id',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Verify a seller (admins)',
        params: IdParamsSchema,
        response: { 200: AcknowledgedCountSchema, ...errorResponses },
      },
    },
    async (request) => ({
      acknowledged: true as const,
      modifiedCount: await verifySeller(db, currentUser(request), request.params.id),
    }),
  );

  app.delete(
    '/user/remove/:id',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Delete a user (admins; never an admin or yourself)',
        params: IdParamsSchema,
        response: { 200: AcknowledgedCountSchema, ...errorResponses },
      },
    },
    async (request) => {
      await deleteUser(db, mailer, currentUser(request), request.params.id, { holdDays, events });
      return { acknowledged: true as const, deletedCount: 1 };
    },
  );

  app.get(
    '/users/:id/listings',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: "A person's cars, removed ones included, newest first (admins)",
        params: IdParamsSchema,
        response: { 200: UserCarsSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { owner, cars } = await carsOfUser(db, request.params.id);
      reply.header('cache-control', 'no-store');
      return { user: presentAdminUser(owner), listings: cars.map(presentMyListing) };
    },
  );

  app.get(
    '/audit',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'The latest admin actions, sales and deletions (admins)',
        response: { 200: AuditListSchema, ...errorResponses },
      },
    },
    async () => (await listAudit(db)).map(presentAuditEntry),
  );

  app.post(
    '/listings/:id/remove',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['listings'],
        summary:
          'Remove any car that is not sold (admins); its open bookings close, and its seller is mailed the `reason`',
        params: IdParamsSchema,
        body: RemoveListingSchema,
        response: { 200: AcknowledgedSchema, ...errorResponses },
      },
    },
    async (request) => {
      await removeListing(
        db,
        events,
        mailer,
        currentUser(request),
        request.params.id,
        request.body?.reason,
      );
      return { acknowledged: true as const };
    },
  );

  // The tables as CSV for an operator's spreadsheet (decision 042), streamed a page at a time.
  const endedAtClose = downloadsEndedAtClose(app);
  for (const table of ADMIN_EXPORT_TABLES) {
    app.get(
      `/admin/exports/${table}.csv`,
      {
        preValidation: adminOnly,
        schema: {
          tags: ['admin'],
          summary: `Every ${table === 'cars' ? 'car' : table.slice(0, -1)} as CSV (admins), streamed`,
          description:
            'RFC 4180 CSV with a header line; a text cell starting with = + - or @ is prefixed with an apostrophe so no spreadsheet runs it.',
          produces: ['text/csv'],
          // The body is CSV text, never serialized.
          response: { 200: z.unknown(), ...errorResponses },
        },
      },
      async (_request, reply) => {
        const stamp = new Date().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="carmarket-${table}-${stamp}.csv"`)
          .header('cache-control', 'no-store')
          .send(endedAtClose(tableCsv(db, table)));
      },
    );
  }
};
