import { sql } from 'drizzle-orm';
import type { ListingStatus } from '@carmarket/shared';
import { queryRows, type Db } from '../../db/client.ts';
import { conversationReport } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { authorize } from '../../lib/policy.ts';
import { readableConversation } from './conversation-access.ts';
import { asDate } from './conversation-reads.ts';
import { DELETED_NAME_SQL } from './live-events.ts';
import { messagesPolicy } from './messages.policy.ts';

/*
 * Reports: a member asks the admins to read a conversation; the admins list them and mark them
 * dealt with. While a report is open, admins may read (not write in) the conversation.
 */

/** A member reports a conversation: admins may read it while the report is open. One open report each. */
export async function reportConversation(
  db: Db,
  actor: SessionUser,
  conversationId: string,
  reason: string,
): Promise<string> {
  const found = await readableConversation(db, actor, conversationId);
  authorize(messagesPolicy.canReport(actor, found));
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
