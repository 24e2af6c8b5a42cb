import { and, asc, desc, eq, ilike, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { auditLog, booking, listing, user, userCount } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import type { DomainEvents } from '../../lib/events.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Mailer } from '../../adapters/mail.ts';
import { userPolicy } from '../users/users.policy.ts';
import { lockCar, notifyClosed, removeCar } from '../listings/lifecycle.ts';
import { listingsOfSeller } from '../listings/seller.service.ts';
import { deleteAccount } from '../users/account-deletion.ts';

/** A page of the admin's people list, prepared once for each of its four shapes. */
function selectUsers(db: Db, { role, text }: { role: boolean; text: boolean }) {
  return db
    .select({
      id: user.id,
      name: user.name,
      email: user.email,
      roles: user.roles,
      verified: user.verified,
      createdAt: user.createdAt,
    })
    .from(user)
    .where(usersWhere({ role, text }))
    .orderBy(desc(user.createdAt), asc(user.email))
    .limit(sql.placeholder('limit') as unknown as number)
    .offset(sql.placeholder('offset') as unknown as number);
}

function usersWhere({ role, text }: { role: boolean; text: boolean }) {
  const pattern = sql.placeholder('pattern');
  return and(
    isNull(user.deletedAt),
    // Someone holding two roles is in both lists (decision 016).
    role ? sql`${user.roles} @> array[${sql.placeholder('role')}]::text[]` : undefined,
    text ? or(ilike(user.name, pattern), ilike(user.email, pattern)) : undefined,
  );
}

const usersPage = {
  all: prepared('users_page', (db) => selectUsers(db, { role: false, text: false })),
  role: prepared('users_page_role', (db) => selectUsers(db, { role: true, text: false })),
  text: prepared('users_page_text', (db) => selectUsers(db, { role: false, text: true })),
  both: prepared('users_page_role_text', (db) => selectUsers(db, { role: true, text: true })),
};

/** How many people a search by name or email finds, prepared for its two shapes. */
function countUsers(db: Db, { role }: { role: boolean }) {
  return db
    .select({ total: sql<number>`count(*)::int` })
    .from(user)
    .where(usersWhere({ role, text: true }));
}

const countUsersFound = {
  text: prepared('users_found', (db) => countUsers(db, { role: false })),
  both: prepared('users_found_role', (db) => countUsers(db, { role: true })),
};

/**
 * A page of the people an admin looks for, newest first, and how many there are: counted when
 * searched by name or email, read from the counts the triggers on "user" keep otherwise.
 */
export async function listUsers(
  db: Db,
  query: {
    role?: 'Seller' | 'Buyer' | 'admin' | undefined;
    q?: string | undefined;
    page: number;
    pageSize: number;
  },
) {
  const values = {
    role: query.role,
    pattern: query.q ? `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  };
  const shape = query.q ? (query.role ? 'both' : 'text') : query.role ? 'role' : 'all';
  const [rows, total] = await Promise.all([
    usersPage[shape](db, values),
    shape === 'both' || shape === 'text'
      ? countUsersFound[shape](db, values).then(([counted]) => counted?.total ?? 0)
      : countLiveAccounts(db, query.role ?? ALL_ROLES),
  ]);
  return { rows, total };
}

/** How `user_count` names every live account, whatever its roles. */
const ALL_ROLES = '*';

const liveAccounts = prepared('live_accounts', (db) =>
  db
    .select({ live: userCount.live })
    .from(userCount)
    .where(eq(userCount.role, sql.placeholder('role'))),
);

/** Live accounts holding a role (or all of them), as the triggers on "user" keep them counted. */
async function countLiveAccounts(db: Db, role: string): Promise<number> {
  const [counted] = await liveAccounts(db, { role });
  return counted?.live ?? 0;
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
  authorize(userPolicy.canVerify(actor, target));
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
 * An admin deletes a person: the same code path as a person deleting their own account
 * (users/account-deletion.ts), which says what it does.
 */
export async function deleteUser(
  db: Db,
  mailer: Mailer,
  actor: SessionUser,
  id: string,
  options: { holdDays: number; events: DomainEvents },
): Promise<void> {
  await deleteAccount(db, mailer, { by: 'admin', actor }, id, options);
}

/**
 * An admin takes any car that is not sold off the site; its open bookings close and their buyers
 * are told. Its seller is told too, with the admin's reason. Recorded in the audit log.
 */
export async function removeListing(
  db: Db,
  events: DomainEvents,
  mailer: Mailer,
  actor: SessionUser,
  id: string,
  reason: string | undefined,
): Promise<void> {
  const outcome = await db.transaction(async (tx) => {
    const car = await lockCar(tx, id);
    if (!car) throw notFound('That car');
    if (car.status === 'sold') throw conflict('A sold car stays on record and cannot be removed.');
    const closed = await removeCar(tx, events, id);
    if (!closed) return null;
    await audit(tx, {
      actorId: actor.id,
      action: 'listing.remove',
      targetType: 'listing',
      targetId: id,
      details: { name: car.name, ...(reason ? { reason } : {}) },
    });
    const [seller] = await tx
      .select({ email: user.email, name: user.name })
      .from(user)
      .where(and(eq(user.id, car.sellerId), isNull(user.deletedAt)));
    return { name: car.name, closed, seller };
  });
  if (!outcome) return;
  const { name, closed, seller } = outcome;
  await Promise.allSettled([
    notifyClosed(mailer, name, closed, 'removed'),
    // A deleted seller's account gets no mail.
    ...(seller ? [mailer.send(removalNotice(seller, name, reason, closed.length))] : []),
  ]);
}

/** The mail that tells a seller an admin removed their car, and why. */
function removalNotice(
  seller: { email: string; name: string },
  carName: string,
  reason: string | undefined,
  closedBookings: number,
) {
  const bookings =
    closedBookings === 0
      ? ''
      : closedBookings === 1
        ? 'Its open booking was closed and the buyer told; nothing was charged.'
        : `Its ${closedBookings} open bookings were closed and the buyers told; nothing was charged.`;
  return {
    to: seller.email,
    subject: `Your ${carName} was removed from CarMarket`,
    text: [
      `Hello ${seller.name},`,
      `An administrator removed your ${carName} from CarMarket. It no longer shows on the site and cannot be booked.`,
      reason ? `The reason they gave:\n\n${reason}` : 'They gave no reason.',
      bookings,
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

/** A person and all their cars, removed ones included, for the admin's view of their cars. */
export async function carsOfUser(db: Db, id: string) {
  const owner = await liveUser(db, id);
  return { owner, cars: await listingsOfSeller(db, id, { withRemoved: true }) };
}

export async function listAudit(db: Db, limit = 100) {
  return (
    db
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
        bookingId: booking.id,
        bookingListingId: booking.listingId,
        bookingCurrency: booking.currency,
        bookingCarName: listing.name,
      })
      .from(auditLog)
      .leftJoin(user, eq(user.id, auditLog.actorId))
      // An entry about a booking names its car (hand-overs, disputes, refunds: decision 037).
      .leftJoin(
        booking,
        eq(
          booking.id,
          sql`case when ${auditLog.targetType} = 'booking' then ${auditLog.targetId}::uuid end`,
        ),
      )
      .leftJoin(listing, eq(listing.id, booking.listingId))
      .orderBy(desc(auditLog.createdAt))
      .limit(limit)
  );
}
