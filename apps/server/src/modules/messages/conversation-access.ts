import { sql } from 'drizzle-orm';
import { holdsRole, type ListingStatus } from '@carmarket/shared';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { findConversation, saleFact, saleOf, type ConversationRow } from './conversation-reads.ts';
import { messagesPolicy, type ConversationFacts } from './messages.policy.ts';

/*
 * Who reaches which conversation, and the lock every change to one takes first. Someone who may
 * not read a conversation is told it does not exist, so ids reveal nothing (decision 008).
 */

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
  authorize(messagesPolicy.canRead(actor, found));
  return found;
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
    sale_status: 'paid' | 'refunded' | null;
    sale_settled_at: Date | string | null;
  }>(
    db,
    sql`select c.id, c.buyer_id, c.seller_id, c.last_seq::float8 as last_seq, c.buyer_unread,
          c.seller_unread, c.buyer_read_seq::float8 as buyer_read_seq,
          c.seller_read_seq::float8 as seller_read_seq, l.status as car_status,
          b.deleted_at is not null as buyer_deleted, s.deleted_at is not null as seller_deleted,
          exists (select 1 from message_block k
            where k.seller_id = c.seller_id and k.buyer_id = c.buyer_id) as blocked,
          sale.status as sale_status, sale.settled_at as sale_settled_at
        from conversation c
        join listing l on l.id = c.listing_id
        join "user" b on b.id = c.buyer_id
        join "user" s on s.id = c.seller_id
        ${saleOf(sql`c.listing_id`, sql`c.buyer_id`)}
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
        sale: saleFact(row),
      } satisfies ConversationState)
    : undefined;
}

/**
 * The conversation if this person is one of its two members. Someone who may not read it is told
 * it does not exist; an admin reading a reported one may not act in it (403).
 */
export async function memberConversation(db: Db, actor: SessionUser, id: string) {
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
  authorize(messagesPolicy.canRead(actor, { ...found, reportOpen }));
  authorize(acting);
  return found;
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
