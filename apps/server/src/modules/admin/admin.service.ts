import { and, asc, desc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, listing, session, user } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Mailer } from '../../plugins/mail.ts';
import { userPolicy } from '../users/users.policy.ts';
import {
  cancelBookingsOfBuyer,
  lockCar,
  notifyClosed,
  removeCar,
  removeCarsOfSeller,
} from '../listings/lifecycle.ts';

export async function listUsers(
  db: Db,
  query: {
    role?: 'Seller' | 'Buyer' | 'admin' | undefined;
    q?: string | undefined;
    page: number;
    pageSize: number;
  },
) {
  const filters: SQL[] = [isNull(user.deletedAt)];
  if (query.role) filters.push(eq(user.role, query.role));
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    filters.push(or(ilike(user.name, pattern), ilike(user.email, pattern))!);
  }
  const where = and(...filters);
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    db
      .select({
        id: user.id,
        name: user.name,
        email: user.email,
        role: user.role,
        verified: user.verified,
        createdAt: user.createdAt,
      })
      .from(user)
      .where(where)
      .orderBy(desc(user.createdAt), asc(user.email))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(user)
      .where(where),
  ]);
  return { rows, total };
}

async function liveUser(db: Db, id: string) {
  const [target] = await db
    .select()
    .from(user)
    .where(and(eq(user.id, id), isNull(user.deletedAt)));
  if (!target) throw notFound('That user');
  return target;
}

/** Marks a seller verified; their cars show the "Verified seller" badge. */
export async function verifySeller(db: Db, actor: SessionUser, id: string): Promise<number> {
  const target = await liveUser(db, id);
  const allowed = userPolicy.canVerify(actor, target);
  // A buyer cannot become verified: the admin may act, the target is wrong for it (409).
  if (!allowed.ok) throw conflict(allowed.reason);
  if (target.verified) return 0;
  await db.transaction(async (tx) => {
    await tx.update(user).set({ verified: true }).where(eq(user.id, id));
    await audit(tx, {
      actorId: actor.id,
      action: 'user.verify',
      targetType: 'user',
      targetId: id,
      details: { email: target.email },
    });
  });
  return 1;
}

/**
 * Deletes a user: they can no longer sign in and every session and token stops at once; their
 * available cars are removed and their open bookings cancelled, and the people affected are told.
 * Paid bookings and payments stay for the records.
 */
export async function deleteUser(
  db: Db,
  mailer: Mailer,
  actor: SessionUser,
  id: string,
): Promise<void> {
  const target = await liveUser(db, id);
  const allowed = userPolicy.canDelete(actor, target);
  if (!allowed.ok) throw forbidden(allowed.reason);

  const effects = await db.transaction(async (tx) => {
    await tx.update(user).set({ deletedAt: new Date() }).where(eq(user.id, id));
    await tx.delete(session).where(eq(session.userId, id));

    // Their cars that were still for sale leave the market; bookings of them close.
    const closedByCar = await removeCarsOfSeller(tx, id);
    // Their own open bookings are cancelled, and any car they held is freed.
    const cancelled = await cancelBookingsOfBuyer(tx, id);
    const sellersTold = cancelled.length
      ? await tx
          .select({ email: user.email, name: user.name, carName: listing.name })
          .from(listing)
          .innerJoin(user, eq(user.id, listing.sellerId))
          .where(
            and(
              inArray(
                listing.id,
                cancelled.map((b) => b.listingId),
              ),
              ne(user.id, id),
            ),
          )
      : [];

    await audit(tx, {
      actorId: actor.id,
      action: 'user.delete',
      targetType: 'user',
      targetId: id,
      details: {
        email: target.email,
        role: target.role,
        carsRemoved: closedByCar.length,
        bookingsCancelled: cancelled.length,
      },
    });
    return { closedByCar, sellersTold };
  });

  await Promise.allSettled([
    ...effects.closedByCar.map(({ carName, closed }) =>
      notifyClosed(mailer, carName, closed, 'the seller’s account was closed'),
    ),
    ...effects.sellersTold.map((seller) =>
      mailer.send({
        to: seller.email,
        subject: `A booking of ${seller.carName} was cancelled`,
        text: `Hello ${seller.name},\n\nA booking of your ${seller.carName} was cancelled because the buyer's account was closed. Your car stays on sale.`,
      }),
    ),
  ]);
}

/**
 * An admin takes any car that is not sold off the site; its open bookings close and their buyers
 * are told. Recorded in the audit log.
 */
export async function removeListing(
  db: Db,
  mailer: Mailer,
  actor: SessionUser,
  id: string,
): Promise<void> {
  const outcome = await db.transaction(async (tx) => {
    const car = await lockCar(tx, id);
    if (!car) throw notFound('That car');
    if (car.status === 'sold') throw conflict('A sold car stays on record and cannot be removed.');
    if (car.status === 'removed') return null;
    const closed = await removeCar(tx, id);
    await audit(tx, {
      actorId: actor.id,
      action: 'listing.remove',
      targetType: 'listing',
      targetId: id,
      details: { name: car.name },
    });
    return { name: car.name, closed };
  });
  if (outcome) {
    await notifyClosed(mailer, outcome.name, outcome.closed, 'it was removed from the site');
  }
}

export async function listAudit(db: Db, limit = 100) {
  return db
    .select({
      id: auditLog.id,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      details: auditLog.details,
      createdAt: auditLog.createdAt,
      actorId: user.id,
      actorName: user.name,
      actorEmail: user.email,
    })
    .from(auditLog)
    .leftJoin(user, eq(user.id, auditLog.actorId))
    .orderBy(desc(auditLog.createdAt))
    .limit(limit);
}
