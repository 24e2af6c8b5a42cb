import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AcknowledgedCountSchema,
  AcknowledgedSchema,
  AdminUserListSchema,
  AllUsersQuerySchema,
  AuditListSchema,
  IdParamsSchema,
  StatsSchema,
} from '@carmarket/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { currentUser, requireRole } from '../../plugins/auth.ts';
import type { Mailer } from '../../plugins/mail.ts';
import { deleteUser, listAudit, listUsers, removeListing, verifySeller } from './admin.service.ts';
import { statsFor } from './stats.service.ts';
import { errorResponses } from '../../lib/route-schemas.ts';

export const adminRoutes: FastifyPluginAsyncZod<{
  db: Db;
  mailer: Mailer;
  config: Config;
}> = async (app, { db, mailer, config }) => {
  const adminOnly = [app.authenticate, requireRole('admin')];

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
      return rows.map((row) => ({
        _id: row.id,
        name: row.name,
        email: row.email,
        role: row.role,
        ...(row.verified ? { verify: 'true' as const } : {}),
        createdAt: row.createdAt.toISOString(),
      }));
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
      await deleteUser(db, mailer, currentUser(request), request.params.id);
      return { acknowledged: true as const, deletedCount: 1 };
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
    async () =>
      (await listAudit(db)).map((row) => ({
        _id: row.id,
        action: row.action,
        actor: row.actorId
          ? { _id: row.actorId, name: row.actorName!, email: row.actorEmail! }
          : null,
        targetType: row.targetType,
        targetId: row.targetId,
        details: row.details,
        createdAt: row.createdAt.toISOString(),
      })),
  );

  app.get(
    '/stats',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['admin'],
        summary: "The dashboard home's figures for the caller's role",
        response: { 200: StatsSchema, ...errorResponses },
      },
    },
    async (request) => statsFor(db, currentUser(request), config.CURRENCY),
  );

  app.post(
    '/listings/:id/remove',
    {
      preValidation: adminOnly,
      schema: {
        tags: ['listings'],
        summary: 'Remove any car that is not sold (admins); its open bookings close',
        params: IdParamsSchema,
        response: { 200: AcknowledgedSchema, ...errorResponses },
      },
    },
    async (request) => {
      await removeListing(db, mailer, currentUser(request), request.params.id);
      return { acknowledged: true as const };
    },
  );
};
