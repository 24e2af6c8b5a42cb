import { sql, type SQL } from 'drizzle-orm';
import {
  holdsRole,
  CONVERSATION_PAGE_SIZE,
  MESSAGE_PAGE_SIZE,
  type ListingStatus,
  type MessageKind,
} from '@carmarket/shared';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { conversationReport, messageBlock } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { tooManyRequests, type CounterStore } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { listingPolicy } from '../listings/listings.policy.ts';
import type { LiveHub } from './live.ts';
import { DELETED_NAME_SQL, recordEvent, type LiveEnvelope } from './live-events.ts';
import {
  MESSAGES_REFUSAL_STATUS,
  messagesPolicy,
  type ConversationFacts,
  type MessagesDecision,
} from './messages.policy.ts';

/*
 * Conversations about a car (issue 16, decision 015). Every change runs in one transaction that
 * locks the conversation's row first, then numbers its live events (live-events.ts: the
 * members' counters, in user id order), and publishes them after the commit. The row holds each
 * side's unread count and read position, so they are exact without counting messages.
 */

export interface MessageLimits {
  perMinute: number;
  perDay: number;
  newConversationsPerDay: number;
  /** For an account whose address is not confirmed: a throw-away account reaches few sellers. */
  newConversationsPerDayUnconfirmed: number;
}

export interface MessagesDeps {
  db: Db;
  live: LiveHub;
  counters: CounterStore;
  limits: MessageLimits;
}

/** A conversation as read for presenting, with the facts its rules need. */
export interface ConversationRow extends ConversationFacts {
  id: string;
  listingId: string;
  carName: string;
  carImg: string | null;
  carPriceCents: number;
  carCurrency: string;
  buyerName: string;
  sellerName: string;
  buyerUnread: number;
  sellerUnread: number;
  buyerReadId: string | null;
  sellerReadId: string | null;
  lastSeq: number;
  lastMessageAt: Date;
  createdAt: Date;
  lastMessage: MessageRow | null;
  /** A member's report of it is open: admins may read it until the report is dealt with. */
  reportOpen: boolean;
}

export interface MessageRow {
  id: string;
  conversationId: string;
  kind: MessageKind;
  body: string;
  senderId: string;
  senderName: string;
  createdAt: Date;
}

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** The columns every read of a conversation takes; `c` is the conversation. */
const CONVERSATION_COLUMNS = sql`
  c.id, c.listing_id, c.buyer_id, c.seller_id, c.last_seq::float8 as last_seq,
  c.last_message_at, c.created_at, c.buyer_unread, c.seller_unread,
  l.name as car_name, coalesce(l.images->0->>'thumbUrl', l.images->0->>'url') as car_img,
  l.reprice_cents::float8 as car_price_cents, l.currency as car_currency, l.status as car_status,
  ${DELETED_NAME_SQL('b')} as buyer_name, b.deleted_at is not null as buyer_deleted,
  ${DELETED_NAME_SQL('s')} as seller_name, s.deleted_at is not null as seller_deleted,
  exists (select 1 from message_block k where k.seller_id = c.seller_id and k.buyer_id = c.buyer_id)
    as blocked,
  exists (select 1 from conversation_report r
    where r.conversation_id = c.id and r.resolved_at is null) as report_open,
  (select r.id from message r where r.seq = c.buyer_read_seq) as buyer_read_id,
  (select r.id from message r where r.seq = c.seller_read_seq) as seller_read_id,
  lm.id as last_id, lm.kind as last_kind, lm.body as last_body, lm.sender_id as last_sender_id,
  lm.created_at as last_created_at`;

const CONVERSATION_FROM = sql`
  from conversation c
  join listing l on l.id = c.listing_id
  join "user" b on b.id = c.buyer_id
  join "user" s on s.id = c.seller_id
  left join message lm on lm.seq = c.last_seq`;

interface RawConversation {
  id: string;
  listing_id: string;
  buyer_id: string;
  seller_id: string;
  last_seq: number;
  last_message_at: Date | string;
  created_at: Date | string;
  buyer_unread: number;
  seller_unread: number;
  car_name: string;
  car_img: string | null;
  car_price_cents: number;
  car_currency: string;
  car_status: ListingStatus;
  buyer_name: string;
  buyer_deleted: boolean;
  seller_name: string;
  seller_deleted: boolean;
  blocked: boolean;
  report_open: boolean;
  buyer_read_id: string | null;
  seller_read_id: string | null;
  last_id: string | null;
  last_kind: MessageKind | null;
  last_body: string | null;
  last_sender_id: string | null;
  last_created_at: Date | string | null;
}

function conversationOf(row: RawConversation): ConversationRow {
  return {
    id: row.id,
    listingId: row.listing_id,
    buyerId: row.buyer_id,
    sellerId: row.seller_id,
    carName: row.car_name,
    carImg: row.car_img,
    carPriceCents: Number(row.car_price_cents),
    carCurrency: row.car_currency,
    carStatus: row.car_status,
    buyerName: row.buyer_name,
    sellerName: row.seller_name,
    buyerDeleted: row.buyer_deleted,
    sellerDeleted: row.seller_deleted,
    blocked: row.blocked,
    reportOpen: row.report_open,
    buyerUnread: row.buyer_unread,
    sellerUnread: row.seller_unread,
    buyerReadId: row.buyer_read_id,
    sellerReadId: row.seller_read_id,
    lastSeq: Number(row.last_seq),
    lastMessageAt: asDate(row.last_message_at),
    createdAt: asDate(row.created_at),
    lastMessage:
      row.last_id && row.last_kind && row.last_body !== null && row.last_sender_id
        ? {
            id: row.last_id,
            conversationId: row.id,
            kind: row.last_kind,
            body: row.last_body,
            senderId: row.last_sender_id,
            senderName: row.last_sender_id === row.buyer_id ? row.buyer_name : row.seller_name,
            createdAt: asDate(row.last_created_at!),
          }
        : null,
  };
}

async function selectConversations(db: Db | Tx, where: SQL, tail: SQL = sql``) {
  const rows = await queryRows<RawConversation>(
    db,
    sql`select ${CONVERSATION_COLUMNS} ${CONVERSATION_FROM} where ${where} ${tail}`,
  );
  return rows.map(conversationOf);
}

export async function findConversation(
  db: Db | Tx,
  id: string,
): Promise<ConversationRow | undefined> {
  const [row] = await selectConversations(db, sql`c.id = ${id}`);
  return row;
}

/**
 * The conversation if this person may read it; else "not found", whether it exists or not, so
 * ids reveal nothing (decision 008).
 */
export async function readableConversation(
  db: Db,
  actor: SessionUser,
  id: string,
): Promise<ConversationRow> {
  const found = await findConversation(db, id);
  if (!found) throw notFound('That conversation');
  orRefuse(messagesPolicy.canRead(actor, found));
  return found;
}

/** Throws a policy's refusal as its answer (404, 403 or 409, with its reason); else nothing. */
function orRefuse(decision: MessagesDecision): void {
  if (decision.ok) return;
  switch (MESSAGES_REFUSAL_STATUS[decision.refusal]) {
    case 404:
      throw notFound('That conversation');
    case 403:
      throw forbidden(decision.reason);
    case 409:
      throw conflict(decision.reason);
  }
}

/** What the write path needs of a conversation: its members, rules' facts and read positions. */
export interface ConversationState extends ConversationFacts {
  id: string;
  lastSeq: number;
  buyerUnread: number;
  sellerUnread: number;
  buyerReadSeq: number;
  sellerReadSeq: number;
}

/** The write path's small read of a conversation (lockConversation locks it first). */
async function stateOf(db: Db | Tx, id: string) {
  const [row] = await queryRows<{
    id: string;
    buyer_id: string;
    seller_id: string;
    last_seq: number;
    buyer_unread: number;
    seller_unread: number;
    buyer_read_seq: number;
    seller_read_seq: number;
    car_status: ListingStatus;
    buyer_deleted: boolean;
    seller_deleted: boolean;
    blocked: boolean;
  }>(
    db,
    sql`select c.id, c.buyer_id, c.seller_id, c.last_seq::float8 as last_seq, c.buyer_unread,
          c.seller_unread, c.buyer_read_seq::float8 as buyer_read_seq,
          c.seller_read_seq::float8 as seller_read_seq, l.status as car_status,
          b.deleted_at is not null as buyer_deleted, s.deleted_at is not null as seller_deleted,
          exists (select 1 from message_block k
            where k.seller_id = c.seller_id and k.buyer_id = c.buyer_id) as blocked
        from conversation c
        join listing l on l.id = c.listing_id
        join "user" b on b.id = c.buyer_id
        join "user" s on s.id = c.seller_id
        where c.id = ${id}`,
  );
  return row
    ? ({
        id: row.id,
        buyerId: row.buyer_id,
        sellerId: row.seller_id,
        lastSeq: Number(row.last_seq),
        buyerUnread: row.buyer_unread,
        sellerUnread: row.seller_unread,
        buyerReadSeq: Number(row.buyer_read_seq),
        sellerReadSeq: Number(row.seller_read_seq),
        carStatus: row.car_status,
        buyerDeleted: row.buyer_deleted,
        sellerDeleted: row.seller_deleted,
        blocked: row.blocked,
      } satisfies ConversationState)
    : undefined;
}

/**
 * The conversation if this person is one of its two members. Someone who may not read it is told
 * it does not exist; an admin reading a reported one may not act in it (403).
 */
async function memberConversation(db: Db, actor: SessionUser, id: string) {
  const found = await stateOf(db, id);
  if (!found) throw notFound('That conversation');
  const acting = messagesPolicy.canAct(actor, found);
  if (acting.ok) return found;
  const reportOpen =
    holdsRole(actor.roles, 'admin') &&
    (
      await queryRows(
        db,
        sql`select 1 from conversation_report
            where conversation_id = ${id} and resolved_at is null limit 1`,
      )
    ).length > 0;
  // Who may not read it is told it does not exist; who may (an admin), that they only read.
  orRefuse(messagesPolicy.canRead(actor, { ...found, reportOpen }));
  orRefuse(acting);
  return found;
}

// -------------------------------------------------------------------------------------------
// Cursors: opaque, checked on the way in.

const badCursor = () =>
  new AppError(400, 'validation-failed', 'This cursor is not one this server gave', {
    field: 'cursor',
  });

export const encodeCursor = (kind: 'c' | 'm', seq: number) =>
  Buffer.from(`${kind}.${seq}`).toString('base64url');

export function decodeCursor(kind: 'c' | 'm', text: string): number {
  const match = /^([cm])\.(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString('utf8'));
  if (!match || match[1] !== kind) throw badCursor();
  return Number(match[2]);
}

// -------------------------------------------------------------------------------------------
// Reading

/** My conversations, newest activity first, a page at a time (keyset on the latest message). */
export async function conversationsOf(
  db: Db,
  actor: SessionUser,
  query: {
    cursor?: string | undefined;
    limit?: number | undefined;
    listingId?: string | undefined;
  },
) {
  const limit = query.limit ?? CONVERSATION_PAGE_SIZE;
  const before = query.cursor ? decodeCursor('c', query.cursor) : undefined;
  const rows = await selectConversations(
    db,
    sql`(c.buyer_id = ${actor.id} or c.seller_id = ${actor.id})
        ${query.listingId ? sql`and c.listing_id = ${query.listingId}` : sql``}
        ${before !== undefined ? sql`and c.last_seq < ${before}` : sql``}`,
    sql`order by c.last_seq desc limit ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page,
    nextCursor: rows.length > limit && last ? encodeCursor('c', last.lastSeq) : null,
  };
}

/** Unread messages for the header's badge, across all my conversations. */
export async function unreadOf(db: Db, actor: SessionUser) {
  const [row] = await queryRows<{ unread: number; conversations: number }>(
    db,
    sql`with mine as (
          select case when c.buyer_id = ${actor.id} then c.buyer_unread else c.seller_unread end as n
          from conversation c where c.buyer_id = ${actor.id} or c.seller_id = ${actor.id})
        select coalesce(sum(n), 0)::int as unread, (count(*) filter (where n > 0))::int as conversations
        from mine`,
  );
  return { unread: row?.unread ?? 0, conversations: row?.conversations ?? 0 };
}

/** A page of a thread: the newest page first; within a page, oldest first. */
export async function messagesPage(
  db: Db,
  conversationId: string,
  query: { cursor?: string | undefined; limit?: number | undefined },
) {
  const limit = query.limit ?? MESSAGE_PAGE_SIZE;
  const before = query.cursor ? decodeCursor('m', query.cursor) : undefined;
  const rows = await queryRows<{
    id: string;
    seq: number;
    kind: MessageKind;
    body: string;
    sender_id: string;
    sender_name: string;
    created_at: Date | string;
  }>(
    db,
    sql`select m.id, m.seq::float8 as seq, m.kind, m.body, m.sender_id,
          ${DELETED_NAME_SQL('u')} as sender_name, m.created_at
        from message m join "user" u on u.id = m.sender_id
        where m.conversation_id = ${conversationId}
          ${before !== undefined ? sql`and m.seq < ${before}` : sql``}
        order by m.seq desc limit ${limit + 1}`,
  );
  const page = rows.slice(0, limit).reverse();
  const oldest = page[0];
  return {
    rows: page.map((row): MessageRow => ({
      id: row.id,
      conversationId,
      kind: row.kind,
      body: row.body,
      senderId: row.sender_id,
      senderName: row.sender_name,
      createdAt: asDate(row.created_at),
    })),
    nextCursor: rows.length > limit && oldest ? encodeCursor('m', Number(oldest.seq)) : null,
  };
}

// -------------------------------------------------------------------------------------------
// Writing

/** The counters answer 503 with sign-in's words while Redis is away; say it for messages. */
async function hit(counters: CounterStore, key: string, windowMs: number) {
  try {
    return await counters.hit(key, windowMs);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 503) {
      throw new AppError(503, 'unavailable', 'Sending messages is unavailable for a moment.', {
        retryAfterSeconds: 30,
      });
    }
    throw error;
  }
}

/** Gives back counts taken for a write that did not happen; a failure only leaves them spent. */
const refund = (counters: CounterStore, keys: string[]) => async () => {
  await Promise.all(keys.map((key) => counters.undo(key))).catch(() => undefined);
};

/**
 * Counts one message against the person's limits (shared by every process when Redis is set);
 * 429 with Retry-After when one is spent. Answers how to give the count back: a message refused
 * afterwards (under the conversation's lock) counts against neither limit.
 */
async function spendMessage(deps: MessagesDeps, userId: string): Promise<() => Promise<void>> {
  const minuteKey = `msg:minute:${userId}`;
  const dayKey = `msg:day:${userId}`;
  // Both at once: one round trip to Redis on every message.
  const [minute, day] = await Promise.all([
    hit(deps.counters, minuteKey, 60_000),
    hit(deps.counters, dayKey, 86_400_000),
  ]);
  const over =
    day.count > deps.limits.perDay
      ? tooManyRequests(
          day.resetAt,
          `You have sent ${deps.limits.perDay} messages today, the most a day. You can send more tomorrow.`,
        )
      : minute.count > deps.limits.perMinute
        ? tooManyRequests(
            minute.resetAt,
            `You can send ${deps.limits.perMinute} messages a minute. Wait a moment, then send it again.`,
          )
        : undefined;
  const giveBack = refund(deps.counters, [minuteKey, dayKey]);
  if (!over) return giveBack;
  await giveBack();
  throw over;
}

/**
 * A new conversation can mail a seller who never heard of the buyer: its own daily limit, lower
 * until the buyer confirms their address (one count, so confirming lifts it the same day).
 * Answers how to give the count back.
 */
async function spendNewConversation(
  deps: MessagesDeps,
  actor: SessionUser,
): Promise<() => Promise<void>> {
  const { newConversationsPerDay, newConversationsPerDayUnconfirmed } = deps.limits;
  const limit = actor.emailVerified
    ? newConversationsPerDay
    : Math.min(newConversationsPerDay, newConversationsPerDayUnconfirmed);
  const key = `msg:new:${actor.id}`;
  const day = await hit(deps.counters, key, 86_400_000);
  const giveBack = refund(deps.counters, [key]);
  if (day.count <= limit) return giveBack;
  await giveBack();
  throw tooManyRequests(
    day.resetAt,
    limit < newConversationsPerDay
      ? `You can ask about ${limit} new cars a day until you confirm your email address. Open the link we mailed you (or send it again from My account) to ask about up to ${newConversationsPerDay}.`
      : `You can ask about ${limit} new cars a day. Your conversations so far are under Messages.`,
  );
}

/** Runs a counted write; when it throws (refused under the lock, or failed), the counts go back. */
async function orGiveBack<T>(giveBack: () => Promise<void>, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    await giveBack();
    throw error;
  }
}

/**
 * Locks a conversation's row (the first lock of every change to it), then reads its state. Two
 * statements on purpose: a statement that waits for a row lock re-reads only the locked row
 * (READ COMMITTED); its joins and subqueries (the car, the members, the block) stay as they were
 * before it waited. The second statement sees everything committed by the lock's last holder,
 * e.g. a block (setBlocked holds this row until it commits) or an account deletion.
 */
export async function lockConversation(tx: Tx, id: string) {
  const [found] = await queryRows(tx, sql`select 1 from conversation where id = ${id} for update`);
  return found ? stateOf(tx, id) : undefined;
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
  orRefuse(messagesPolicy.canSend(actor, conversation));
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
  const giveBack = await spendMessage(deps, actor.id);
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
  }>(
    deps.db,
    sql`select l.id, l.seller_id, l.status, s.deleted_at is not null as seller_deleted,
          exists (select 1 from message_block k where k.seller_id = l.seller_id and k.buyer_id = ${actor.id}) as blocked,
          (select c.id from conversation c where c.listing_id = l.id and c.buyer_id = ${actor.id}) as conversation_id
        from listing l join "user" s on s.id = l.seller_id where l.id = ${listingId}`,
  );
  // A car you cannot see (withdrawn, removed) is "not found", unless you talked about it before.
  if (
    !car ||
    (!car.conversation_id &&
      !listingPolicy.canView(actor, { sellerId: car.seller_id, status: car.status }))
  ) {
    throw new AppError(404, 'not-found', 'That car was not found.', { field: 'listingId' });
  }
  orRefuse(messagesPolicy.canAsk(actor, { sellerId: car.seller_id }));
  if (car.conversation_id) return sendMessage(deps, actor, car.conversation_id, body);

  // What the conversation would be: its rules are checked before anything is counted.
  checkCanSend(actor, {
    buyerId: actor.id,
    sellerId: car.seller_id,
    carStatus: car.status,
    blocked: car.blocked,
    buyerDeleted: false,
    sellerDeleted: car.seller_deleted,
  });
  const giveBackStart = await spendNewConversation(deps, actor);
  // Refused by the message limits, it starts no conversation either.
  const giveBackMessage = await orGiveBack(giveBackStart, () => spendMessage(deps, actor.id));
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
  orRefuse(messagesPolicy.canBlock(actor, found));
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

/** A member reports a conversation: admins may read it while the report is open. One open report each. */
export async function reportConversation(
  db: Db,
  actor: SessionUser,
  conversationId: string,
  reason: string,
): Promise<string> {
  const found = await readableConversation(db, actor, conversationId);
  orRefuse(messagesPolicy.canReport(actor, found));
  try {
    const [row] = await db
      .insert(conversationReport)
      .values({ conversationId, reporterId: actor.id, reason })
      .returning({ id: conversationReport.id });
    return row!.id;
  } catch (error) {
    if (isUniqueViolation(error, 'conversation_report_open_unique')) {
      throw conflict('You reported this conversation already; an administrator will read it.');
    }
    throw error;
  }
}

export interface ReportRow {
  id: string;
  conversationId: string;
  reason: string;
  reporterName: string;
  reporterSide: 'buyer' | 'seller';
  buyerName: string;
  sellerName: string;
  createdAt: Date;
  resolvedAt: Date | null;
  car: {
    id: string;
    name: string;
    img: string | null;
    priceCents: number;
    currency: string;
    status: ListingStatus;
  };
}

/** Reports for the admins: open ones first, newest first; the latest 200. */
export async function listReports(db: Db): Promise<ReportRow[]> {
  const rows = await queryRows<{
    id: string;
    conversation_id: string;
    reason: string;
    reporter_name: string;
    reporter_is_buyer: boolean;
    buyer_name: string;
    seller_name: string;
    created_at: Date | string;
    resolved_at: Date | string | null;
    listing_id: string;
    car_name: string;
    car_img: string | null;
    car_price_cents: number;
    car_currency: string;
    car_status: ListingStatus;
  }>(
    db,
    sql`select r.id, r.conversation_id, r.reason, ${DELETED_NAME_SQL('p')} as reporter_name,
          r.reporter_id = c.buyer_id as reporter_is_buyer,
          ${DELETED_NAME_SQL('b')} as buyer_name, ${DELETED_NAME_SQL('s')} as seller_name,
          r.created_at, r.resolved_at, l.id as listing_id, l.name as car_name,
          coalesce(l.images->0->>'thumbUrl', l.images->0->>'url') as car_img,
          l.reprice_cents::float8 as car_price_cents, l.currency as car_currency,
          l.status as car_status
        from conversation_report r
        join conversation c on c.id = r.conversation_id
        join listing l on l.id = c.listing_id
        join "user" p on p.id = r.reporter_id
        join "user" b on b.id = c.buyer_id
        join "user" s on s.id = c.seller_id
        order by r.resolved_at is not null, r.created_at desc
        limit 200`,
  );
  return rows.map((row) => ({
    id: row.id,
    conversationId: row.conversation_id,
    reason: row.reason,
    reporterName: row.reporter_name,
    reporterSide: row.reporter_is_buyer ? 'buyer' : 'seller',
    buyerName: row.buyer_name,
    sellerName: row.seller_name,
    createdAt: asDate(row.created_at),
    resolvedAt: row.resolved_at === null ? null : asDate(row.resolved_at),
    car: {
      id: row.listing_id,
      name: row.car_name,
      img: row.car_img,
      priceCents: Number(row.car_price_cents),
      currency: row.car_currency,
      status: row.car_status,
    },
  }));
}

/** An admin marks a report dealt with (recorded in the audit log); answers whether it changed. */
export async function resolveReport(db: Db, actor: SessionUser, id: string): Promise<number> {
  return db.transaction(async (tx) => {
    const resolved = await tx
      .update(conversationReport)
      .set({ resolvedAt: new Date(), resolvedBy: actor.id })
      .where(sql`${conversationReport.id} = ${id} and ${conversationReport.resolvedAt} is null`)
      .returning({ conversationId: conversationReport.conversationId });
    if (resolved.length === 0) {
      const [exists] = await tx
        .select({ id: conversationReport.id })
        .from(conversationReport)
        .where(sql`${conversationReport.id} = ${id}`);
      if (!exists) throw notFound('That report');
      return 0;
    }
    await audit(tx, {
      actorId: actor.id,
      action: 'report.resolve',
      targetType: 'conversation',
      targetId: resolved[0]!.conversationId,
      details: { reportId: id },
    });
    return 1;
  });
}
