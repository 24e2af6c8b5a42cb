import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Role, SignupRole } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { user } from '../../db/schema.ts';
import { conflict } from '../../lib/errors.ts';

/**
 * Sets the role chosen at sign-up, once: asking again for the same role is fine (a retried
 * request), asking for another one is a conflict. Admin is never set here.
 */
export async function setSignupRole(
  db: Db,
  userId: string,
  role: SignupRole,
  name?: string,
): Promise<void> {
  const updated = await db
    .update(user)
    .set({ role, ...(name ? { name } : {}) })
    .where(and(eq(user.id, userId), isNull(user.role)))
    .returning({ id: user.id });
  if (updated.length > 0) return;
  const [current] = await db.select({ role: user.role }).from(user).where(eq(user.id, userId));
  if (current?.role !== role) {
    throw conflict(`This account is already registered as ${current?.role ?? 'another type'}.`);
  }
}

/** A first Google sign-in becomes a Buyer; later ones change nothing. */
export async function ensureRole(db: Db, userId: string, role: SignupRole): Promise<void> {
  await db
    .update(user)
    .set({ role })
    .where(and(eq(user.id, userId), isNull(user.role)));
}

/** The role of the (not deleted) user with this email, or null. */
export async function roleOfEmail(db: Db, email: string): Promise<Role | null> {
  const [row] = await db
    .select({ role: user.role })
    .from(user)
    .where(and(eq(sql`lower(${user.email})`, email.toLowerCase()), isNull(user.deletedAt)));
  return row?.role ?? null;
}
