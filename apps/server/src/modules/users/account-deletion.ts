import { and, eq, isNull } from 'drizzle-orm';
import { DELETED_USER_NAME, firstRole, type Role } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { account, booking, listing, session, user } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import type { DomainEvents } from '../../lib/events.ts';
import type { Mailer } from '../../adapters/mail.ts';
import { longDate } from '../../lib/mail-dates.ts';
import { addressFreeFrom } from './deleted-accounts.ts';
import { userPolicy } from './users.policy.ts';

/** Who asks for a deletion: an admin (from the user lists), or the person themself (My account). */
export type DeletionRequest =
  { by: 'admin'; actor: { id: string; roles: Role[] } } | { by: 'self' };

/**
 * Deletes a person's account, whether an admin or the person asks: the one code path for both
 * (DESIGN.md section 10). In one transaction:
 *
 * - the account is marked deleted: it can no longer sign in, and every session and bearer token
 *   stops at once; its name, phone and photo are erased (the row and its address stay for the
 *   records, decision 012);
 * - when the person deletes their own account, their password and Google link go too, so signing
 *   in answers as for a wrong password (decision 016); an admin's deletion keeps them for the
 *   hold, so the person is told what happened when they sign in;
 * - their cars still on sale are withdrawn from the site and the bookings of them closed;
 * - their open bookings are cancelled and any car they held is freed;
 * - their saved cars and searches go;
 * - their conversations close, their messages staying under "Deleted user" (the other members
 *   are told live, and the person's own live streams end);
 * - on every booking and car kept for the other party (paid ones included), their name reads
 *   "Deleted user" and their contact details are erased;
 * - the audit log records who deleted whom and what it did.
 *
 * Then the people affected are mailed: buyers whose bookings closed, sellers whose bookings were
 * cancelled, and the person, when they deleted their own account.
 *
 * The saved items, the conversations and the cars and bookings are each their module's part:
 * this publishes `account.deleted` (decision 026) and saved, messages and listings, subscribed in
 * that order in app.ts (the lock order), do theirs in this transaction.
 */
export async function deleteAccount(
  db: Db,
  mailer: Mailer,
  asked: DeletionRequest,
  targetId: string,
  options: { holdDays: number; events: DomainEvents },
): Promise<void> {
  const [target] = await db
    .select()
    .from(user)
    .where(and(eq(user.id, targetId), isNull(user.deletedAt)));
  if (!target) throw notFound('That user');
  const self = asked.by === 'self';
  const actor = asked.by === 'self' ? target : asked.actor;
  authorize(self ? userPolicy.canDeleteSelf(target) : userPolicy.canDelete(actor, target));

  const effects = await db.transaction(async (tx) => {
    // Conditional, so two deletions at once do the work once: the second finds no live account.
    const [marked] = await tx
      .update(user)
      .set({ deletedAt: new Date(), name: DELETED_USER_NAME, phone: null, image: null })
      .where(and(eq(user.id, target.id), isNull(user.deletedAt)))
      .returning({ id: user.id });
    if (!marked) throw notFound('That user');
    await tx.delete(session).where(eq(session.userId, target.id));
    // better-auth's delete-user would remove these after this commits; here they go with the rest.
    if (self) await tx.delete(account).where(eq(account.userId, target.id));
    // Saved cars and searches go; conversations close; cars on sale leave the market and their
    // bookings close; the person's open bookings are cancelled and any car they held is freed.
    const deletion = { userId: target.id, outcome: { carsRemoved: 0, bookingsCancelled: 0 } };
    const afterCommit = await options.events.publish(tx, 'account.deleted', deletion);

    // The records stay for the other party, without the person in them.
    await tx
      .update(booking)
      .set({ buyerName: DELETED_USER_NAME, buyerEmail: '', phone: '' })
      .where(eq(booking.buyerId, target.id));
    await tx
      .update(listing)
      .set({ sellerName: DELETED_USER_NAME })
      .where(eq(listing.sellerId, target.id));

    await audit(tx, {
      actorId: actor.id,
      action: 'user.delete',
      targetType: 'user',
      targetId: target.id,
      details: {
        email: target.email,
        name: target.name,
        role: firstRole(target.roles),
        roles: target.roles,
        self,
        carsRemoved: deletion.outcome.carsRemoved,
        bookingsCancelled: deletion.outcome.bookingsCancelled,
      },
    });
    return { afterCommit, carsRemoved: deletion.outcome.carsRemoved };
  });

  await Promise.allSettled([
    effects.afterCommit(),
    ...(self ? [mailer.send(goodbye(target, effects.carsRemoved, options.holdDays))] : []),
  ]);
}

/** The mail that confirms to a person that their own account is gone, and what that did. */
function goodbye(person: { email: string; name: string }, carsWithdrawn: number, holdDays: number) {
  const freeFrom = longDate(addressFreeFrom(new Date(), holdDays));
  return {
    to: person.email,
    subject: 'Your CarMarket account was deleted',
    text: [
      `Hello ${person.name},`,
      'Your CarMarket account was deleted, as you asked. You can no longer sign in to it; your open bookings were cancelled' +
        (carsWithdrawn > 0
          ? `, and your ${carsWithdrawn === 1 ? 'car that was' : `${carsWithdrawn} cars that were`} on sale ${carsWithdrawn === 1 ? 'was' : 'were'} taken off the site.`
          : '.'),
      `Paid bookings stay on record for the other party, under the name "${DELETED_USER_NAME}". Your email address can be used for a new account from ${freeFrom}.`,
    ].join('\n\n'),
  };
}
