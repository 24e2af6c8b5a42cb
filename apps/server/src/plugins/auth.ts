import { createHmac } from 'node:crypto';
import { fromNodeHeaders } from 'better-auth/node';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '@carmarket/shared';
import type { Db } from '../db/client.ts';
import { prepared } from '../db/prepared.ts';
import { session, user } from '../db/schema.ts';
import { authorize, type Decision } from '../lib/policy.ts';
import { AppError } from '../lib/errors.ts';
import { readCookie, sameSecret } from '../lib/signing.ts';
import type { AccessTokens } from '../modules/auth/access-token.ts';
import type { Auth } from '../modules/auth/auth.ts';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  /** Every role the account holds (a Buyer may also be a Seller); empty until one is chosen. */
  roles: Role[];
  /** A seller checked by an admin. */
  verified: boolean;
  /** The person opened the link mailed to their address. */
  emailVerified: boolean;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person once `authenticate` ran, else null. */
    user: SessionUser | null;
  }
  interface FastifyInstance {
    /** Route hook (preValidation, so anonymous callers learn nothing of the input rules): resolves the caller from the session cookie or bearer token, or answers 401. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * Route hook for routes open to visitors without an account: resolves the caller as
     * `authenticate` does when they bring a session (a bearer token that fails is still a 401),
     * else leaves `request.user` null. A policy decides what the caller may then do.
     */
    identify(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * The person signed in by the session cookie alone, as better-auth sees them (its endpoints
     * read no bearer token), or null. Cookies better-auth sets while it reads the session (its
     * daily extension, or clearing an expired one) go on `reply`, before anything the handler
     * adds (a sign-out's clearing comes after, and wins).
     */
    cookieSession(request: FastifyRequest, reply: FastifyReply): Promise<SessionUser | null>;
  }
}

const userColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  roles: user.roles,
  verified: user.verified,
  emailVerified: user.emailVerified,
  deletedAt: user.deletedAt,
};

/** A session's "last used" is kept to this precision: one write per session per interval. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

/** A bearer token's session while it lasts, with its person. */
const liveSessionById = prepared('session_by_id', (db) =>
  db
    .select({ ...userColumns, lastSeenAt: session.lastSeenAt })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(
      and(
        eq(session.id, sql.placeholder('sessionId')),
        eq(session.userId, sql.placeholder('userId')),
        gt(session.expiresAt, sql.placeholder('now')),
      ),
    ),
);

/** A session cookie's session (expired or not: better-auth deals with those), with its person. */
const sessionByToken = prepared('session_by_token', (db) =>
  db
    .select({
      ...userColumns,
      sessionId: session.id,
      expiresAt: session.expiresAt,
      lastSeenAt: session.lastSeenAt,
    })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, sql.placeholder('token'))),
);

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
    const { authCookies, secret, sessionConfig } = await auth.$context;
    const readSessionToken = signedCookieReader(authCookies.sessionToken.name, secret);

    /**
     * Moves the session's "last used" (the devices list shows it) when it is older than the
     * resolution: a write every few minutes per active session, not one per call.
     */
    async function noteUse(sessionId: string, lastSeenAt: Date): Promise<void> {
      const now = Date.now();
      if (now - lastSeenAt.getTime() < LAST_SEEN_RESOLUTION_MS) return;
      await db
        .update(session)
        .set({ lastSeenAt: new Date(now) })
        .where(
          and(
            eq(session.id, sessionId),
            lt(session.lastSeenAt, new Date(now - LAST_SEEN_RESOLUTION_MS)),
          ),
        );
    }

    async function fromBearer(token: string): Promise<SessionUser> {
      const verified = await tokens.verify(token);
      if (!verified.ok) {
        throw tokenError(
          verified.reason === 'expired' ? 'user-token-expired' : 'invalid-user-token',
        );
      }
      const { userId, sessionId } = verified.claims;
      const [row] = await liveSessionById(db, { sessionId, userId, now: new Date() });
      if (row && !row.deletedAt) {
        await noteUse(sessionId, row.lastSeenAt);
        const { deletedAt: _deleted, lastSeenAt: _seen, ...person } = row;
        return { ...person, sessionId };
      }
      // The session is gone: signed out, expired, or the account was deleted (which ends them all).
      const [owner] = await db
        .select({ deletedAt: user.deletedAt })
        .from(user)
        .where(eq(user.id, userId));
      throw tokenError(owner?.deletedAt || row?.deletedAt ? 'user-disabled' : 'user-token-expired');
    }

    /**
     * better-auth's session cookie, read the way better-auth reads it, with one query: its own
     * `getSession` costs about a millisecond of CPU more per call (decision 011). A session due
     * for its daily extension, expired or unknown goes through better-auth, which extends or
     * clears it.
     */
    async function fromCookie(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<SessionUser | null> {
      const token = readSessionToken(request.headers.cookie);
      if (!token) return null;
      const [row] = await sessionByToken(db, { token });
      const now = Date.now();
      const dueForExtension =
        !row ||
        row.expiresAt.getTime() <= now ||
        row.expiresAt.getTime() - sessionConfig.expiresIn * 1000 + sessionConfig.updateAge * 1000 <=
          now;
      if (dueForExtension) return fromBetterAuth(request, reply);
      if (row.deletedAt) throw tokenError('user-disabled');
      await noteUse(row.sessionId, row.lastSeenAt);
      const { deletedAt: _deleted, expiresAt: _expires, lastSeenAt: _seen, ...person } = row;
      return person;
    }

    async function fromBetterAuth(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<SessionUser | null> {
      const { headers, response: found } = await auth.api.getSession({
        headers: fromNodeHeaders(request.headers),
        returnHeaders: true,
      });
      // Without them the browser's cookie would keep its first expiry while the session moves on.
      const cookies = headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      if (!found) return null;
      // better-auth reads the whole user row, our additional fields included.
      const person = found.user as typeof found.user & {
        roles?: Role[] | null;
        verified?: boolean;
        deletedAt?: Date | null;
      };
      if (person.deletedAt) throw tokenError('user-disabled');
      return {
        id: person.id,
        name: person.name,
        email: person.email,
        roles: person.roles ?? [],
        verified: person.verified ?? false,
        emailVerified: person.emailVerified,
        sessionId: found.session.id,
      };
    }

    app.decorate('cookieSession', fromCookie);

    async function identify(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      if (request.user) return;
      const header = request.headers.authorization;
      if (header) {
        const match = /^Bearer\s+(\S+)$/i.exec(header);
        if (!match) throw tokenError('invalid-user-token');
        request.user = await fromBearer(match[1]!);
        return;
      }
      request.user = await fromCookie(request, reply);
    }

    app.decorate('identify', identify);
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      await identify(request, reply);
      if (!request.user) throw new AppError(401, 'unauthenticated');
    });
  },
);

/**
 * Reads a cookie better-auth signed (`value.base64(HMAC-SHA256(secret, value))`, URL-encoded):
 * the value, or null when the cookie is absent or its signature does not match.
 */
function signedCookieReader(name: string, secret: string) {
  return (header: string | undefined): string | null => {
    const raw = readCookie(header, name);
    if (raw === null) return null;
    let signed: string;
    try {
      signed = decodeURIComponent(raw);
    } catch {
      return null;
    }
    const dot = signed.lastIndexOf('.');
    if (dot < 1) return null;
    const value = signed.slice(0, dot);
    // Compared as the text better-auth writes, so no other spelling of the bytes passes.
    const expected = createHmac('sha256', secret).update(value).digest('base64');
    return sameSecret(signed.slice(dot + 1), expected) ? value : null;
  };
}

/** The signed-in user in a handler that ran `authenticate` first. */
export function currentUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError(401, 'unauthenticated');
  return request.user;
}

/**
 * Route hook, after `authenticate`: asks a named policy about the signed-in person and, when it
 * refuses, answers as `authorize` does. Rules about roles live in the policy files, not here.
 */
export function guard(rule: (actor: SessionUser) => Decision) {
  return async (request: FastifyRequest) => {
    authorize(rule(currentUser(request)));
  };
}
