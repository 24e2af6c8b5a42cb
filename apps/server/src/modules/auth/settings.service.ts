import { and, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { account, session } from '../../db/schema.ts';

/*
 * The reads the settings calls of the auth route make beside better-auth's own (decision 016):
 * a person's own session by id, their password's hash, their live sessions.
 */

/** The token better-auth revokes a session by, if the session is the person's own; else null. */
export async function ownSessionToken(
  db: Db,
  userId: string,
  sessionId: string,
): Promise<string | null> {
  const [own] = await db
    .select({ token: session.token })
    .from(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, userId)));
  return own?.token ?? null;
}

/** The hash of the person's password, or null for an account without one (Google only). */
export async function passwordHashOf(db: Db, userId: string): Promise<string | null> {
  const [credential] = await db
    .select({ hash: account.password })
    .from(account)
    .where(
      and(
        eq(account.userId, userId),
        eq(account.providerId, 'credential'),
        isNotNull(account.password),
      ),
    );
  return credential?.hash ?? null;
}

/** Those of `ids` that are the person's sessions and have not expired, with what we show. */
export function liveSessionsOf(db: Db, userId: string, ids: string[]) {
  return db
    .select({
      id: session.id,
      userAgent: session.userAgent,
      ipAddress: session.ipAddress,
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
    })
    .from(session)
    .where(
      and(eq(session.userId, userId), inArray(session.id, ids), gt(session.expiresAt, new Date())),
    );
}
