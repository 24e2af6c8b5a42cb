import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Mailer } from '../../adapters/mail.ts';
import { listing, user } from '../../db/schema.ts';
import type { DomainEvents } from '../../lib/events.ts';
import { cancelBookingsOfBuyer, notifyClosed, removeCarsOfSeller } from './lifecycle.ts';

/**
 * What the car market does when an account is deleted (users/account-deletion.ts says the whole
 * of it), in the deletion's transaction: the person's cars leave it, their bookings end. The
 * people affected are mailed after the commit.
 */
export function subscribeListings(events: DomainEvents, mailer: Mailer): void {
  events.subscribe('account.deleted', 'listings', async (tx, deletion) => {
    const { userId } = deletion;
    // Their cars that were still for sale leave the market; bookings of them close.
    const closedByCar = await removeCarsOfSeller(tx, events, userId);
    // Their own open bookings are cancelled, and any car they held is freed.
    const cancelled = await cancelBookingsOfBuyer(tx, userId);
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
              ne(user.id, userId),
              isNull(user.deletedAt),
            ),
          )
      : [];
    deletion.outcome.carsRemoved = closedByCar.length;
    deletion.outcome.bookingsCancelled = cancelled.length;
    return () =>
      Promise.allSettled([
        ...closedByCar.map(({ carName, closed }) =>
          notifyClosed(mailer, carName, closed, 'seller-deleted'),
        ),
        ...sellersTold.map((seller) =>
          mailer.send({
            to: seller.email,
            subject: `A booking of ${seller.carName} was cancelled`,
            text: `Hello ${seller.name},\n\nA booking of your ${seller.carName} was cancelled because the buyer's account was closed. Your car stays on sale.`,
          }),
        ),
      ]);
  });
}
