import { sql } from 'drizzle-orm';
import type { ListingStatus, MessageKind } from '@carmarket/shared';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { messageBlock } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import { orGiveBack, type CounterStore } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { lockConversation, memberConversation } from './conversation-access.ts';
import {
  asDate,
  findConversation,
  saleFact,
  saleOf,
  type ConversationRow,
  type MessageRow,
} from './conversation-reads.ts';
import type { LiveHub } from './live.ts';
import { recordEvent, type LiveEnvelope } from './live-events.ts';
import { spendMessage, spendNewConversation, type MessageLimits } from './message-limits.ts';
import { messagesPolicy, type ConversationFacts } from './messages.policy.ts';

/*
 * Writing in conversations (issue 16, decision 015). Every change runs in one transaction that
 * locks the conversation's row first (lockConversation), then numbers its live events
 * (live-events.ts: the members' counters, in user id order), and publishes them after the commit.
 */

export interface MessagesDeps {
  db: Db;
  live: LiveHub;
  counters: CounterStore;
  limits: MessageLimits;
}

/**
 * Adds a message to a locked conversation, in one statement: the message; the sender has read
 * everything before it and the other side has one more unread (a `text` starts the wait for its
 * mail); both members' event numbers (in user id order, as recordEvent takes them) and events.
 * Answers what to publish after the commit.
 */
export async function addMessage(
  tx: Tx,
  conversation: { id: string; buyerId: string; sellerId: string },
  sender: { id: string; name: string },
  line: { kind: MessageKind; body: string; bookingId?: string },
): Promise<{ message: MessageRow; envelope: LiveEnvelope }> {
  const fromBuyer = sender.id === conversation.buyerId;
  const startsWait = line.kind === 'text';
  const side = (mine: boolean, prefix: 'buyer' | 'seller') => {
    const column = (name: string) => sql.raw(`${prefix}_${name}`);
    return mine
      ? sql`${column('unread')} = 0, ${column('read_seq')} = m.seq, ${column('unread_since')} = null`
      : sql`${column('unread')} = ${column('unread')} + 1,
            ${column('unread_since')} = ${startsWait ? sql`coalesce(${column('unread_since')}, m.created_at)` : column('unread_since')}`;
  };
  const members = [conversation.buyerId, conversation.sellerId].sort();
  const [row] = await queryRows<{
    id: string;
    created_at: Date | string;
    recipients: Array<{ userId: string; no: number }>;
  }>(
    tx,
    sql`with m as (
          insert into message (conversation_id, sender_id, kind, body, booking_id)
          values (${conversation.id}, ${sender.id}, ${line.kind}, ${line.body}, ${line.bookingId ?? null})
          returning id, seq, created_at
        ), u as (
          update conversation set last_seq = m.seq, last_message_at = m.created_at,
            ${side(fromBuyer, 'buyer')}, ${side(!fromBuyer, 'seller')}
          from m where conversation.id = ${conversation.id}
          returning 1
        ), n as (
          insert into conversation_event_counter (user_id, last_no)
          select id, 1 from unnest(${`{${members.join(',')}}`}::uuid[]) with ordinality as p(id, ord)
          order by ord
          on conflict (user_id) do update set last_no = conversation_event_counter.last_no + 1
          returning user_id, last_no
        ), e as (
          insert into conversation_event (user_id, no, conversation_id, kind, message_id)
          select n.user_id, n.last_no, ${conversation.id}, 'message', m.id from n cross join m
          returning 1
        )
        select m.id, m.created_at,
          (select json_agg(json_build_object('userId', n.user_id, 'no', n.last_no::float8)
             order by n.user_id) from n) as recipients
        from m`,
  );
  const { id, recipients } = row!;
  const createdAt = asDate(row!.created_at);
  const stored: MessageRow = {
    id,
    conversationId: conversation.id,
    kind: line.kind,
    body: line.body,
    senderId: sender.id,
    senderName: sender.name,
    createdAt,
  };
  return {
    message: stored,
    envelope: {
      type: 'event',
      kind: 'message',
      conversationId: conversation.id,
      to: recipients.map((r) => ({ userId: r.userId, no: Number(r.no) })),
      message: { ...stored, createdAt: createdAt.toISOString() },
    },
  };
}

/** Refuses a message the rules do not allow into this (locked) conversation. */
function checkCanSend(actor: SessionUser, conversation: ConversationFacts): void {
  authorize(messagesPolicy.canSend(actor, conversation));
}

/** `POST /api/conversations/:id/messages`: a member writes, while the conversation is open. */
export async function sendMessage(
  deps: MessagesDeps,
  actor: SessionUser,
  conversationId: string,
  body: string,
): Promise<MessageRow> {
  // Checked before anything is counted, so a refusal costs no one their limit; checked again
  // under the lock, where a refusal gives the count back.
  checkCanSend(actor, await memberConversation(deps.db, actor, conversationId));
  const giveBack = await spendMessage(deps.counters, deps.limits, actor.id);
  const { message: sent, envelope } = await orGiveBack(giveBack, () =>
    deps.db.transaction(async (tx) => {
      const locked = (await lockConversation(tx, conversationId))!;
      checkCanSend(actor, locked);
      return addMessage(tx, locked, actor, { kind: 'text', body });
    }),
  );
  deps.live.publish(envelope);
  return sent;
}

/**
 * `POST /api/listings/:id/messages`: a buyer asks about a car. The first message starts the
 * conversation (one per car and buyer); later ones add to it.
 */
export async function askAboutCar(
  deps: MessagesDeps,
  actor: SessionUser,
  listingId: string,
  body: string,
): Promise<MessageRow> {
  const [car] = await queryRows<{
    id: string;
    seller_id: string;
    status: ListingStatus;
    seller_deleted: boolean;
    blocked: boolean;
    conversation_id: string | null;
    sale_status: 'paid' | 'refunded' | null;
    sale_settled_at: Date | string | null;
  }>(
    deps.db,
    sql`select l.id, l.seller_id, l.status, s.deleted_at is not null as seller_deleted,
          exists (select 1 from message_block k where k.seller_id = l.seller_id and k.buyer_id = ${actor.id}) as blocked,
          (select c.id from conversation c where c.listing_id = l.id and c.buyer_id = ${actor.id}) as conversation_id,
          sale.status as sale_status, sale.settled_at as sale_settled_at
        from listing l join "user" s on s.id = l.seller_id
        ${saleOf(sql`l.id`, sql`${actor.id}`)}
        where l.id = ${listingId}`,
  );
  if (!car) throw new AppError(404, 'not-found', 'That car was not found.', { field: 'listingId' });
  // The caller's own purchase of the car, looked up from their session, never from the request:
  // it keeps the conversation with the seller open after the sale (messagesPolicy.closedBecause).
  const sale = saleFact(car);
  const asking = messagesPolicy.canAskAbout(actor, {
    car: { sellerId: car.seller_id, status: car.status },
    hasConversation: car.conversation_id !== null,
    sale,
  });
  // A car not found is the field's error, as above; the other refusals are the caller's.
  authorize(asking, asking.ok || asking.status !== 404 ? undefined : { field: 'listingId' });
  if (car.conversation_id) return sendMessage(deps, actor, car.conversation_id, body);

  // What the conversation would be: its rules are checked before anything is counted.
  checkCanSend(actor, {
    buyerId: actor.id,
    sellerId: car.seller_id,
    carStatus: car.status,
    blocked: car.blocked,
    buyerDeleted: false,
    sellerDeleted: car.seller_deleted,
    sale,
  });
  const giveBackStart = await spendNewConversation(deps.counters, deps.limits, actor);
  // Refused by the message limits, it starts no conversation either.
  const giveBackMessage = await orGiveBack(giveBackStart, () =>
    spendMessage(deps.counters, deps.limits, actor.id),
  );
  const giveBack = async () => {
    await Promise.all([giveBackStart(), giveBackMessage()]);
  };
  const { message: sent, envelope } = await orGiveBack(giveBack, () =>
    deps.db.transaction(async (tx) => {
      // Two first messages at once make one conversation: the second finds the first's row.
      const [created] = await queryRows<{ id: string }>(
        tx,
        sql`insert into conversation (listing_id, buyer_id, seller_id)
          values (${car.id}, ${actor.id}, ${car.seller_id})
          on conflict (listing_id, buyer_id) do update set listing_id = excluded.listing_id
          returning id`,
      );
      // A block of this buyer under way holds the seller's other conversations with them
      // (setBlocked locks those rows): waiting for them, a block committed meanwhile is seen below.
      await tx.execute(
        sql`select 1 from conversation
          where seller_id = ${car.seller_id} and buyer_id = ${actor.id} and id <> ${created!.id}
          order by id for share`,
      );
      const locked = (await lockConversation(tx, created!.id))!;
      checkCanSend(actor, locked);
      return addMessage(tx, locked, actor, { kind: 'text', body });
    }),
  );
  deps.live.publish(envelope);
  return sent;
}

/** `POST /api/conversations/:id/read`: everything up to the latest message is read by me. */
export async function markRead(
  deps: MessagesDeps,
  actor: SessionUser,
  conversationId: string,
): Promise<ConversationRow> {
  await memberConversation(deps.db, actor, conversationId);
  const envelope = await deps.db.transaction(async (tx) => {
    const locked = (await lockConversation(tx, conversationId))!;
    const buyer = locked.buyerId === actor.id;
    const prefix = buyer ? 'buyer' : 'seller';
    const readSeq = buyer ? locked.buyerReadSeq : locked.sellerReadSeq;
    const unread = buyer ? locked.buyerUnread : locked.sellerUnread;
    // Read already: no change and no event (a page that marks read on every open sends none).
    if (unread === 0 && readSeq === locked.lastSeq) return null;
    const [read] = await queryRows<{ up_to: string | null }>(
      tx,
      sql`update conversation set ${sql.raw(`${prefix}_unread`)} = 0,
          ${sql.raw(`${prefix}_read_seq`)} = last_seq, ${sql.raw(`${prefix}_unread_since`)} = null
        where id = ${conversationId}
        returning (select m.id from message m where m.seq = conversation.last_seq) as up_to`,
    );
    const upTo = read?.up_to ?? null;
    const to = await recordEvent(tx, {
      kind: 'read',
      conversationId,
      userIds: [locked.buyerId, locked.sellerId],
      messageId: upTo,
      actorId: actor.id,
    });
    return {
      type: 'event' as const,
      kind: 'read' as const,
      conversationId,
      to,
      readerId: actor.id,
      upTo,
    };
  });
  if (envelope) deps.live.publish(envelope);
  return (await findConversation(deps.db, conversationId))!;
}

/**
 * A seller blocks (or unblocks) the buyer of a conversation: about every car of theirs. Each of
 * their conversations tells both members live, so the buyer learns it without reloading.
 */
export async function setBlocked(
  deps: MessagesDeps,
  actor: SessionUser,
  conversationId: string,
  blocked: boolean,
): Promise<ConversationRow> {
  const found = await memberConversation(deps.db, actor, conversationId);
  authorize(messagesPolicy.canBlock(actor, found));
  const envelopes = await deps.db.transaction(async (tx) => {
    // Their conversations' rows first (in id order), as every change to a conversation does.
    const between = await queryRows<{ id: string }>(
      tx,
      sql`select id from conversation where seller_id = ${found.sellerId} and buyer_id = ${found.buyerId}
          order by id for update`,
    );
    const changed = blocked
      ? await tx
          .insert(messageBlock)
          .values({ sellerId: found.sellerId, buyerId: found.buyerId })
          .onConflictDoNothing()
          .returning({ sellerId: messageBlock.sellerId })
      : await tx
          .delete(messageBlock)
          .where(
            sql`${messageBlock.sellerId} = ${found.sellerId} and ${messageBlock.buyerId} = ${found.buyerId}`,
          )
          .returning({ sellerId: messageBlock.sellerId });
    if (changed.length === 0) return [];
    const told: LiveEnvelope[] = [];
    for (const { id } of between) {
      const to = await recordEvent(tx, {
        kind: 'conversation',
        conversationId: id,
        userIds: [found.buyerId, found.sellerId],
      });
      told.push({ type: 'event', kind: 'conversation', conversationId: id, to });
    }
    return told;
  });
  for (const envelope of envelopes) deps.live.publish(envelope);
  return (await findConversation(deps.db, conversationId))!;
}
