import { sql, type SQL } from 'drizzle-orm';
import {
  CONVERSATION_PAGE_SIZE,
  MESSAGE_PAGE_SIZE,
  type ListingStatus,
  type MessageKind,
} from '@carmarket/shared';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { decodeSequenceCursor, encodeSequenceCursor, pageOf } from '../../lib/cursor.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { DELETED_NAME_SQL } from './live-events.ts';
import type { ConversationFacts } from './messages.policy.ts';

/*
 * Reading conversations and their messages (issue 16, decision 015), as the presenter shows them.
 * The conversation's row holds each side's unread count and read position, so they are exact
 * without counting messages. Who may read which conversation: conversation-access.ts.
 */

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

export const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/**
 * `sale`: the car's latest paid or refunded booking when it is this buyer's (a sale after it,
 * to anyone, is the car's sale instead), with its status and when its money was released or
 * refunded (`settled_at`, null while held) from its settlement. Tables, not the payouts module's
 * code: the payouts feature writes them (decisions 026, 037).
 */
export const saleOf = (carId: SQL, buyerId: SQL) => sql`
  left join lateral (
    select bk.buyer_id, bk.status, coalesce(st.released_at, st.refunded_at) as settled_at
    from booking bk left join settlement st on st.booking_id = bk.id
    where bk.listing_id = ${carId} and bk.status in ('paid', 'refunded')
    order by bk.paid_at desc limit 1
  ) sale on sale.buyer_id = ${buyerId}`;

/** The rules' view of a `saleOf` row. */
export const saleFact = (row: {
  sale_status: 'paid' | 'refunded' | null;
  sale_settled_at: Date | string | null;
}): ConversationFacts['sale'] =>
  row.sale_status
    ? {
        status: row.sale_status,
        settledAt: row.sale_settled_at === null ? null : asDate(row.sale_settled_at),
      }
    : null;

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
  lm.created_at as last_created_at, sale.status as sale_status, sale.settled_at as sale_settled_at`;

const CONVERSATION_FROM = sql`
  from conversation c
  join listing l on l.id = c.listing_id
  join "user" b on b.id = c.buyer_id
  join "user" s on s.id = c.seller_id
  left join message lm on lm.seq = c.last_seq
  ${saleOf(sql`c.listing_id`, sql`c.buyer_id`)}`;

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
  sale_status: 'paid' | 'refunded' | null;
  sale_settled_at: Date | string | null;
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
    sale: saleFact(row),
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
  const before = query.cursor ? decodeSequenceCursor('c', query.cursor) : undefined;
  const rows = await selectConversations(
    db,
    sql`(c.buyer_id = ${actor.id} or c.seller_id = ${actor.id})
        ${query.listingId ? sql`and c.listing_id = ${query.listingId}` : sql``}
        ${before !== undefined ? sql`and c.last_seq < ${before}` : sql``}`,
    sql`order by c.last_seq desc limit ${limit + 1}`,
  );
  return pageOf(rows, limit, (last) => encodeSequenceCursor('c', last.lastSeq));
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
  const before = query.cursor ? decodeSequenceCursor('m', query.cursor) : undefined;
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
  // Read newest first; the page's last row is its oldest message, where the next page starts.
  const page = pageOf(rows, limit, (oldest) => encodeSequenceCursor('m', Number(oldest.seq)));
  return {
    rows: page.rows.reverse().map((row): MessageRow => ({
      id: row.id,
      conversationId,
      kind: row.kind,
      body: row.body,
      senderId: row.sender_id,
      senderName: row.sender_name,
      createdAt: asDate(row.created_at),
    })),
    nextCursor: page.nextCursor,
  };
}
