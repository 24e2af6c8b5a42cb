import type { DomainEvents } from '../../lib/events.ts';
import { closeConversationsOf, noteBooking } from './conversation-news.ts';
import type { LiveHub } from './live.ts';

/**
 * What conversations hear of the core's changes (decision 026): written in the change's
 * transaction, told live once it commits.
 */
export function subscribeMessages(events: DomainEvents, live: LiveHub): void {
  events.subscribe('booking.created', 'messages', async (tx, booked) => {
    const told = await noteBooking(tx, {
      id: booked.bookingId,
      listingId: booked.carId,
      buyer: booked.buyer,
      priceCents: booked.priceCents,
      currency: booked.currency,
      location: booked.location,
    });
    return () => {
      for (const envelope of told) live.publish(envelope);
    };
  });
  events.subscribe('account.deleted', 'messages', async (tx, { userId }) => {
    const told = await closeConversationsOf(tx, userId);
    return () => {
      for (const envelope of told) live.publish(envelope);
      live.endStreamsOf(userId);
    };
  });
}
