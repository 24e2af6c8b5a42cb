import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AccessTokenSchema,
  AcknowledgedSchema,
  AddRoleSchema,
  EmailParamsSchema,
  EmailQuerySchema,
  GoogleUserSchema,
  IsAdminSchema,
  IsBuyerSchema,
  IsSellerSchema,
  RolesSchema,
  SetRoleSchema,
} from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { AccessTokens } from '../auth/access-token.ts';
import { userPolicy } from './users.policy.ts';
import { presentRoles } from './users.presenter.ts';
import {
  addRole,
  ensureRole,
  rolesOfEmail,
  sessionExpiresAt,
  setSignupRole,
} from './users.service.ts';
import { errorResponses } from '../../lib/route-schemas.ts';

export const userRoutes: FastifyPluginAsyncZod<{ db: Db; tokens: AccessTokens }> = async (
  app,
  { db, tokens },
) => {
  const security: Array<Record<string, string[]>> = [{ session: [] }, { bearer: [] }];
  const signedIn = { preValidation: app.authenticate, schema: { security } };

  /**
   * Only a signed-in browser (its session cookie) mints bearer tokens: a leaked token must not
   * renew itself. A bearer alone is checked as everywhere (401 when it is bad), then refused.
   */
  async function cookieSessionOnly(request: FastifyRequest, reply: FastifyReply) {
    request.user = await app.cookieSession(request, reply);
    if (request.user) return;
    await app.authenticate(request, reply);
    throw forbidden('A bearer token cannot get another one; sign in again to get a new token.');
  }

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
      authorize(userPolicy.canSetRoleOf(actor, email));
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
      authorize(userPolicy.canRegister(actor, request.body.email));
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
        authorize(userPolicy.canReadRoleOf(currentUser(request), request.params.email));
        // An account holding two roles answers true to both (decision 016).
        const roles = await rolesOfEmail(db, request.params.email);
        return flag.answer(roles.includes(flag.role));
      },
    );
  }

  app.post(
    '/user/roles',
    {
      ...signedIn,
      schema: {
        ...signedIn.schema,
        tags: ['users'],
        summary:
          'Add Seller (or Buyer) to your own account, keeping everything it has; answers every role it holds',
        body: AddRoleSchema,
        response: { 200: RolesSchema, ...errorResponses },
      },
    },
    async (request) => presentRoles(await addRole(db, currentUser(request), request.body.role)),
  );

  app.get(
    '/jwt',
    {
      preValidation: cookieSessionOnly,
      schema: {
        security: [{ session: [] }],
        tags: ['users'],
        summary: 'A short-lived bearer token for the signed-in user (own email only)',
        querystring: EmailQuerySchema,
        response: { 200: AccessTokenSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(userPolicy.canGetTokenFor(actor, request.query.email));
      const sessionEnds = await sessionExpiresAt(db, actor.id, actor.sessionId);
      // Ended between the cookie's check and now (signed out elsewhere).
      if (!sessionEnds) throw new AppError(401, 'unauthenticated');
      const { token, expiresAt } = await tokens.issue(
        { userId: actor.id, sessionId: actor.sessionId },
        sessionEnds,
      );
      reply.header('cache-control', 'no-store');
      return { accessToken: token, expiresAt: expiresAt.toISOString() };
    },
  );
};
