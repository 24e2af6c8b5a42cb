import { fromNodeHeaders } from 'better-auth/node';
import { and, eq, gt } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@carmarket/shared';
import type { Db } from '../db/client.ts';
import { session, user } from '../db/schema.ts';
import type { Decision } from '../lib/policy.ts';
import { AppError, forbidden } from '../lib/errors.ts';
import type { AccessTokens } from '../modules/auth/access-token.ts';
import type { Auth } from '../modules/auth/auth.ts';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: Role | null;
  verified: boolean;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person once `authenticate` ran, else null. */
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** Route hook (preValidation, so anonymous callers learn nothing of the input rules): resolves the caller from the session cookie or bearer token, or answers 401. */
    authenticate(request: FastifyRequest): Promise<void>;
  }
}

const userColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  verified: user.verified,
  deletedAt: user.deletedAt,
};

const tokenError = (code: 'user-token-expired' | 'invalid-user-token' | 'user-disabled') =>
  new AppError(401, code);

/**
 * Who is calling: a better-auth session cookie, or `Authorization: Bearer <token from /api/jwt>`.
 * Resolved only by routes that need it, so public pages cost no session lookup.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, deps: { auth: Auth; tokens: AccessTokens; db: Db }) => {
    const { auth, tokens, db } = deps;
    app.decorateRequest('user', null);

    async function fromBearer(token: string): Promise<SessionUser> {
      const verified = await tokens.verify(token);
      if (!verified.ok) {
        throw tokenError(
          verified.reason === 'expired' ? 'user-token-expired' : 'invalid-user-token',
        );
      }
      const { userId, sessionId } = verified.claims;
      const [row] = await db
        .select(userColumns)
        .from(session)
        .innerJoin(user, eq(user.id, session.userId))
        .where(
          and(
            eq(session.id, sessionId),
            eq(session.userId, userId),
            gt(session.expiresAt, new Date()),
          ),
        );
      if (row && !row.deletedAt) return { ...row, sessionId };
      // The session is gone: signed out, expired, or the account was deleted (which ends them all).
      const [owner] = await db
        .select({ deletedAt: user.deletedAt })
        .from(user)
        .where(eq(user.id, userId));
      throw tokenError(owner?.deletedAt || row?.deletedAt ? 'user-disabled' : 'user-token-expired');
    }

    async function fromCookie(request: FastifyRequest): Promise<SessionUser | null> {
      const found = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
      if (!found) return null;
      // better-auth reads the whole user row, our additional fields included.
      const person = found.user as typeof found.user & {
        role?: SessionUser['role'];
        verified?: boolean;
        deletedAt?: Date | null;
      };
      if (person.deletedAt) throw tokenError('user-disabled');
      return {
        id: person.id,
        name: person.name,
        email: person.email,
        role: person.role ?? null,
        verified: person.verified ?? false,
        sessionId: found.session.id,
      };
    }

    app.decorate('authenticate', async (request: FastifyRequest) => {
      if (request.user) return;
      const header = request.headers.authorization;
      if (header) {
        const match = /^Bearer\s+(\S+)$/i.exec(header);
        if (!match) throw tokenError('invalid-user-token');
        request.user = await fromBearer(match[1]!);
        return;
      }
      request.user = await fromCookie(request);
      if (!request.user) throw new AppError(401, 'unauthenticated');
    });
  },
);

/** The signed-in user in a handler that ran `authenticate` first. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError(401, 'unauthenticated');
  return request.user;
}

/**
 * Route hook, after `authenticate`: asks a named policy about the signed-in person and answers
 * 403 with its reason when it refuses. Rules about roles live in the policy files, not here.
 */
export function guard(rule: (actor: SessionUser) => Decision) {
  return async (request: FastifyRequest) => {
    const decision = rule(currentUser(request));
    if (!decision.ok) throw forbidden(decision.reason);
  };
}
