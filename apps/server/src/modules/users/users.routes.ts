import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AccessTokenSchema,
  AcknowledgedSchema,
  EmailParamsSchema,
  EmailQuerySchema,
  GoogleUserSchema,
  IsAdminSchema,
  IsBuyerSchema,
  IsSellerSchema,
  SetRoleSchema,
} from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { forbidden } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { AccessTokens } from '../auth/access-token.ts';
import { userPolicy } from './users.policy.ts';
import { ensureRole, roleOfEmail, setSignupRole } from './users.service.ts';
import { errorResponses } from '../../lib/route-schemas.ts';

export const userRoutes: FastifyPluginAsyncZod<{ db: Db; tokens: AccessTokens }> = async (
  app,
  { db, tokens },
) => {
  const security: Array<Record<string, string[]>> = [{ session: [] }, { bearer: [] }];
  const signedIn = { preValidation: app.authenticate, schema: { security } };

  app.post(
    '/user',
    {
      ...signedIn,
      schema: {
        ...signedIn.schema,
        tags: ['users'],
        summary: 'Set the role chosen at sign-up (Seller or Buyer), once; own email only',
        body: SetRoleSchema,
        response: { 200: AcknowledgedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      const { email, role, name } = request.body;
      if (!userPolicy.isOwnEmail(actor, email)) throw forbidden('You can only set your own role.');
      await setSignupRole(db, actor.id, role, name);
      return { acknowledged: true as const };
    },
  );

  app.post(
    '/google/user',
    {
      ...signedIn,
      schema: {
        ...signedIn.schema,
        tags: ['users'],
        summary: 'After a first Google sign-in: the account becomes a Buyer',
        body: GoogleUserSchema,
        response: { 200: AcknowledgedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      if (!userPolicy.isOwnEmail(actor, request.body.email)) {
        throw forbidden('You can only register your own account.');
      }
      await ensureRole(db, actor.id, 'Buyer');
      return { acknowledged: true as const };
    },
  );

  const roleFlags = [
    {
      path: 'admin',
      role: 'admin',
      schema: IsAdminSchema,
      answer: (is: boolean) => ({ isAdmin: is }),
    },
    {
      path: 'buyer',
      role: 'Buyer',
      schema: IsBuyerSchema,
      answer: (is: boolean) => ({ isBuyer: is }),
    },
    {
      path: 'seller',
      role: 'Seller',
      schema: IsSellerSchema,
      answer: (is: boolean) => ({ isSeller: is }),
    },
  ] as const;
  for (const flag of roleFlags) {
    app.get(
      `/user/${flag.path}/:email`,
      {
        ...signedIn,
        schema: {
          ...signedIn.schema,
          tags: ['users'],
          summary: `Whether the user with this email is ${flag.role === 'admin' ? 'an admin' : `a ${flag.role}`} (that user or an admin)`,
          params: EmailParamsSchema,
          response: { 200: flag.schema, ...errorResponses },
        },
      },
      async (request) => {
        const actor = currentUser(request);
        if (!userPolicy.canReadRoleOf(actor, request.params.email)) {
          throw forbidden('You can only look up your own account.');
        }
        return flag.answer((await roleOfEmail(db, request.params.email)) === flag.role);
      },
    );
  }

  app.get(
    '/jwt',
    {
      ...signedIn,
      schema: {
        ...signedIn.schema,
        tags: ['users'],
        summary: 'A short-lived bearer token for the signed-in user (own email only)',
        querystring: EmailQuerySchema,
        response: { 200: AccessTokenSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      if (!userPolicy.isOwnEmail(actor, request.query.email)) {
        throw forbidden('You can only ask for your own token.');
      }
      const { token, expiresAt } = await tokens.issue({
        userId: actor.id,
        sessionId: actor.sessionId,
      });
      reply.header('cache-control', 'no-store');
      return { accessToken: token, expiresAt: expiresAt.toISOString() };
    },
  );
};
