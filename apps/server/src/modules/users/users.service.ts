import { and, eq, isNull, sql } from 'drizzle-orm';
import { firstRole, type Role, type SignupRole } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { session, user } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { userPolicy } from './users.policy.ts';

const hasNoRole = sql`cardinality(${user.roles}) = 0`;

/**
 * Sets the role chosen at sign-up, once: asking again for the same role is fine (a retried
 * request), asking for another one is a conflict. Admin is never set here. Later roles are added
 * with `addRole`; the one chosen here stays first (the spec's `role`).
 */
export async function setSignupRole(
  db: Db,
  userId: string,
  role: SignupRole,
  name?: string,
): Promise<void> {
  const updated = await db
    .update(user)
    .set({ roles: [role], ...(name ? { name } : {}) })
    .where(and(eq(user.id, userId), hasNoRole))
    .returning({ id: user.id });
  if (updated.length > 0) return;
  const [current] = await db.select({ roles: user.roles }).from(user).where(eq(user.id, userId));
  const first = firstRole(current?.roles);
  if (first !== role) {
    throw conflict(`This account is already registered as ${first ?? 'another type'}.`);
  }
}

/** A first Google sign-in becomes a Buyer; later ones change nothing. */
export async function ensureRole(db: Db, userId: string, role: SignupRole): Promise<void> {
  await db
    .update(user)
    .set({ roles: [role] })
    .where(and(eq(user.id, userId), hasNoRole));
}

/** The roles of the (not deleted) user with this email; empty when there is none. */
export async function rolesOfEmail(db: Db, email: string): Promise<Role[]> {
  const [row] = await db
    .select({ roles: user.roles })
    .from(user)
    .where(and(eq(sql`lower(${user.email})`, email.toLowerCase()), isNull(user.deletedAt)));
  return row?.roles ?? [];
}

/**
 * Adds a role to the signed-in account (a Buyer becomes a Seller too, keeping their bookings),
 * after the roles it holds; answers every role it holds now. One statement, so two requests at
 * once cannot add it twice.
 */
export async function addRole(db: Db, actor: SessionUser, role: SignupRole): Promise<Role[]> {
  authorize(userPolicy.canAddRole(actor));
  return db.transaction(async (tx) => {
    const [added] = await tx
      .update(user)
      .set({ roles: sql`array_append(${user.roles}, ${role})` })
      .where(
        and(
          eq(user.id, actor.id),
          isNull(user.deletedAt),
          sql`not (${user.roles} @> array[${role}]::text[])`,
        ),
      )
      .returning({ roles: user.roles });
    if (added) {
      await audit(tx, {
        actorId: actor.id,
        action: 'user.add-role',
        targetType: 'user',
        targetId: actor.id,
        details: { email: actor.email, role },
      });
      return added.roles;
    }
    const [current] = await tx
      .select({ roles: user.roles })
      .from(user)
      .where(and(eq(user.id, actor.id), isNull(user.deletedAt)));
    if (!current) throw notFound('Your account');
    return current.roles;
  });
}

/**
 * When the person's session ends, or null when it is not theirs: the bearer tokens it mints
 * (GET /api/jwt) do not outlive it.
 */
export async function sessionExpiresAt(
  db: Db,
  userId: string,
  sessionId: string,
): Promise<Date | null> {
  const [own] = await db
    .select({ expiresAt: session.expiresAt })
    .from(session)
    .where(and(eq(session.id, sessionId), eq(session.userId, userId)));
  return own?.expiresAt ?? null;
}
