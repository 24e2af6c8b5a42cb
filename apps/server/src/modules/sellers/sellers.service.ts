import { eq, sql } from 'drizzle-orm';
import { REPLY_FIGURES_DAYS, REPLY_FIGURES_MIN_CONVERSATIONS } from '@carmarket/shared';
import { queryRows, type Db } from '../../db/client.ts';
import { conversation, listing, message, sellerCount, user } from '../../db/schema.ts';

/** The account behind a seller's profile, with what the policy asks of it; undefined if none. */
export async function findSellerAccount(db: Db, id: string) {
  const [row] = await db
    .select({
      id: user.id,
      name: user.name,
      image: user.image,
      verified: user.verified,
      roles: user.roles,
      deletedAt: user.deletedAt,
      // Never later than their first car: cars brought in with an earlier date (an import, the
      // demo's) would otherwise predate the seller. One step of listing_seller_idx.
      memberSince:
        sql<Date>`least(${user.createdAt}, (select min(${listing.createdAt}) from ${listing} where ${listing.sellerId} = ${id}))`.mapWith(
          user.createdAt,
        ),
    })
    .from(user)
    .where(eq(user.id, id));
  return row;
}

export type SellerAccount = NonNullable<Awaited<ReturnType<typeof findSellerAccount>>>;

/**
 * How many of the seller's cars are on sale and how many were sold: one row of `seller_count`,
 * which triggers on the cars' table keep (migration 0023), where counting a dealer's cars took
 * 146 ms a call.
 */
export async function carCounts(db: Db, sellerId: string) {
  const [row] = await db
    .select({ onSale: sellerCount.onSale, sold: sellerCount.sold })
    .from(sellerCount)
    .where(eq(sellerCount.sellerId, sellerId));
  return { onSale: row?.onSale ?? 0, sold: row?.sold ?? 0 };
}

export interface ReplyFigures {
  medianReplyMinutes: number | null;
  replyRate: number | null;
}

/** The figures, and how many conversations of the window they were drawn from. */
interface FiguresOfWindow extends ReplyFigures {
  conversations: number;
}

/**
 * How the seller answers buyers: of the conversations buyers started with them in the last
 * REPLY_FIGURES_DAYS days (by when the conversation began), the share the seller wrote in, and the
 * median time from the buyer's first message to the seller's first reply, in whole minutes. Both
 * null under REPLY_FIGURES_MIN_CONVERSATIONS conversations; the median null too when none was
 * answered. Only written messages count (a booking's line is the server's). A conversation opened
 * an hour ago and not yet answered counts as unanswered: the window is long enough for that to
 * weigh little.
 */
export async function replyFigures(db: Db, sellerId: string): Promise<FiguresOfWindow> {
  const [row] = await queryRows<{ conversations: number; replied: number; median: number | null }>(
    db,
    // conversation_seller_created_idx finds the window's conversations; message_conversation_idx
    // each one's messages. Materialized: inlined, the planner ran the first lookup five times a
    // conversation (once per use of asked_at) and the reply lookup three times.
    sql`with asked as materialized (
        select c.id, (select min(m.created_at) from ${message} m
            where m.conversation_id = c.id and m.sender_id = c.buyer_id and m.kind = 'text') as asked_at
        from ${conversation} c
        where c.seller_id = ${sellerId}
          and c.created_at >= now() - make_interval(days => ${REPLY_FIGURES_DAYS})
      ), answered as materialized (
        select a.asked_at, (select min(m.created_at) from ${message} m
            where m.conversation_id = a.id and m.sender_id = ${sellerId} and m.kind = 'text'
              and m.created_at >= a.asked_at) as replied_at
        from asked a where a.asked_at is not null
      )
      select count(*)::int as conversations, count(replied_at)::int as replied,
        (percentile_cont(0.5) within group (order by extract(epoch from replied_at - asked_at))
          filter (where replied_at is not null))::float8 as median
      from answered`,
  );
  const conversations = row?.conversations ?? 0;
  if (conversations < REPLY_FIGURES_MIN_CONVERSATIONS) {
    return { medianReplyMinutes: null, replyRate: null, conversations };
  }
  const median = row?.median ?? null;
  return {
    medianReplyMinutes: median === null ? null : Math.round(Number(median) / 60),
    replyRate: (row?.replied ?? 0) / conversations,
    conversations,
  };
}

/**
 * A seller with this many conversations in the window has their reply figures kept for
 * REPLY_FIGURES_KEPT_MS: working them out reads two messages per conversation (a dealer with
 * 20,000 in 90 days took 1-1.9 s on PostgreSQL), and a few minutes' staleness is harmless. Below
 * it they are worked out each call (under 500, about 10 ms), so a seller's first replies show at
 * once.
 */
export const REPLY_FIGURES_KEPT_FROM = 500;
const REPLY_FIGURES_KEPT_MS = 5 * 60_000;
/** Busy sellers whose figures a process keeps at most; the oldest kept goes first. */
const KEPT_SELLERS_MAX = 1000;

/**
 * Reply figures per seller (replyFigures), kept for busy sellers (REPLY_FIGURES_KEPT_FROM) in
 * this process; calls for one seller while their figures are being worked out share that work,
 * so a flood of a dealer's profile works them out once.
 */
export function keptReplyFigures(db: Db): (sellerId: string) => Promise<ReplyFigures> {
  const kept = new Map<string, { figures: ReplyFigures; until: number }>();
  const running = new Map<string, Promise<FiguresOfWindow>>();
  return async (sellerId) => {
    const held = kept.get(sellerId);
    if (held && held.until > Date.now()) return held.figures;
    let work = running.get(sellerId);
    if (!work) {
      work = replyFigures(db, sellerId).finally(() => running.delete(sellerId));
      running.set(sellerId, work);
    }
    const { conversations, ...figures } = await work;
    kept.delete(sellerId);
    if (conversations >= REPLY_FIGURES_KEPT_FROM) {
      if (kept.size >= KEPT_SELLERS_MAX) kept.delete(kept.keys().next().value!);
      kept.set(sellerId, { figures, until: Date.now() + REPLY_FIGURES_KEPT_MS });
    }
    return figures;
  };
}
