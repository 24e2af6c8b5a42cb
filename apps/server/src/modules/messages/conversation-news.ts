import { sql } from 'drizzle-orm';
import { formatMoney } from '@carmarket/shared';
import { queryRows, type Tx } from '../../db/client.ts';
import { recordEvent, type LiveEnvelope } from './live-events.ts';
import { lockConversation } from './conversation-access.ts';
import { addMessage } from './message-writes.ts';

/*
 * What the rest of the server tells conversations about, inside its own transaction, so the news
 * is kept exactly when the change is (as keep-track's tracking-events.ts does). The caller
 * publishes the answered envelopes after its commit (LiveHub.publish).
 */

/**
 * A buyer booked a car they had asked about: the booking appears in the conversation as an
 * event line. Nothing when they never asked (a booking does not start a conversation).
 */
export async function noteBooking(
  tx: Tx,
  booking: {
    id: string;
    listingId: string;
    buyer: { id: string; name: string };
    priceCents: number;
    currency: string;
    location: string;
  },
): Promise<LiveEnvelope[]> {
  const [found] = await queryRows<{ id: string }>(
    tx,
    sql`select id from conversation where listing_id = ${booking.listingId} and buyer_id = ${booking.buyer.id}`,
  );
  if (!found) return [];
  const conversation = (await lockConversation(tx, found.id))!;
  const { envelope } = await addMessage(tx, conversation, booking.buyer, {
    kind: 'booking',
    body: `Booked this car for ${formatMoney(booking.priceCents, booking.currency)}, to meet at: ${booking.location}`,
    bookingId: booking.id,
  });
  return [envelope];
}

/**
 * A person's account is being deleted (users/account-deletion.ts, the one code path for an
 * admin's deletion and the person's own): their messages stay, shown under "Deleted user", and
 * each of their conversations closes. The other members are told live; the deleted person's own
 * streams are ended by the caller.
 */
export async function closeConversationsOf(tx: Tx, userId: string): Promise<LiveEnvelope[]> {
  // Locked in id order, as every change to a conversation locks its row first.
  const conversations = await queryRows<{ id: string; other_id: string }>(
    tx,
    sql`select id, case when buyer_id = ${userId} then seller_id else buyer_id end as other_id
        from conversation where buyer_id = ${userId} or seller_id = ${userId}
        order by id for update`,
  );
  // Then the other members' event counters, all at once in user id order, as every other change
  // takes counters: taken one by one in conversation order, two of this person's contacts writing
  // to each other could hold them the other way round (a deadlock).
  const contacts = [...new Set(conversations.map((c) => c.other_id))].sort();
  if (contacts.length > 0) {
    await tx.execute(
      sql`insert into conversation_event_counter (user_id, last_no)
          select id, 0 from unnest(${`{${contacts.join(',')}}`}::uuid[]) with ordinality as u(id, n)
          order by n
          on conflict (user_id) do update set last_no = conversation_event_counter.last_no`,
    );
  }
  const envelopes: LiveEnvelope[] = [];
  for (const conversation of conversations) {
    const to = await recordEvent(tx, {
      kind: 'conversation',
      conversationId: conversation.id,
      userIds: [conversation.other_id],
    });
    envelopes.push({ type: 'event', kind: 'conversation', conversationId: conversation.id, to });
  }
  // No "new message" mail waits for them any more.
  await tx.execute(sql`update conversation set
      buyer_unread_since = case when buyer_id = ${userId} then null else buyer_unread_since end,
      seller_unread_since = case when seller_id = ${userId} then null else seller_unread_since end
    where buyer_id = ${userId} or seller_id = ${userId}`);
  return envelopes;
}
