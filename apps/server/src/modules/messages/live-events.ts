import { sql } from 'drizzle-orm';
import { DELETED_USER_NAME } from '@carmarket/shared';
import { queryRows, type Db, type Tx } from '../../db/client.ts';
import { conversationEvent } from '../../db/schema.ts';

/*
 * The live events of conversations, as stored (decision 015). Each person's events are numbered
 * 1, 2, 3 ... without gaps: the number is taken from their row in conversation_event_counter,
 * which stays locked until the transaction commits, so a person's numbers are given in the order
 * their transactions commit. A stream therefore never has to guess: `Last-Event-ID: n` means
 * "send me n+1 onwards", and an event n+2 arriving before n+1 (two processes publishing at once)
 * means n+1 is already committed and can be read here.
 */

export type LiveEventKind = 'message' | 'read' | 'conversation';

/** A message as the live events carry it; presented per recipient (`mine`) by the stream. */
export interface LiveMessage {
  id: string;
  conversationId: string;
  kind: 'text' | 'booking';
  body: string;
  senderId: string;
  senderName: string;
  createdAt: string;
}

/**
 * An event as it travels between processes: whom it is for, each with their event number, and
 * what happened. `end` and `sessions` are not events: they end a person's open streams on every
 * process (their account was deleted), or those whose session is gone.
 */
export type LiveEnvelope =
  | {
      type: 'event';
      kind: LiveEventKind;
      conversationId: string;
      to: Array<{ userId: string; no: number }>;
      message?: LiveMessage;
      /** `read`: who read, and the last message they read. */
      readerId?: string;
      upTo?: string | null;
    }
  | { type: 'end'; userId: string }
  /** Ends those of the person's streams whose session is gone (revoked, password changed). */
  | { type: 'sessions'; userId: string };

export type LiveEvent = Extract<LiveEnvelope, { type: 'event' }>;

/**
 * Numbers one event for each of `userIds` and stores it; answers whom it went to with their
 * numbers, for publishing after the commit. Counters are taken in user id order, so two
 * transactions numbering for the same two people cannot deadlock.
 */
export async function recordEvent(
  tx: Tx,
  event: {
    kind: LiveEventKind;
    conversationId: string;
    userIds: string[];
    messageId?: string | null;
    actorId?: string | null;
  },
): Promise<Array<{ userId: string; no: number }>> {
  const userIds = [...new Set(event.userIds)].sort();
  if (userIds.length === 0) return [];
  const numbered = await queryRows<{ user_id: string; no: number }>(
    tx,
    sql`insert into conversation_event_counter (user_id, last_no)
        select id, 1 from unnest(${`{${userIds.join(',')}}`}::uuid[]) with ordinality as u(id, n)
        order by n
        on conflict (user_id) do update set last_no = conversation_event_counter.last_no + 1
        returning user_id, last_no::float8 as no`,
  );
  const to = numbered.map((row) => ({ userId: row.user_id, no: Number(row.no) }));
  await tx.insert(conversationEvent).values(
    to.map(({ userId, no }) => ({
      userId,
      no,
      conversationId: event.conversationId,
      kind: event.kind,
      messageId: event.messageId ?? null,
      actorId: event.actorId ?? null,
    })),
  );
  return to;
}

/** The person's latest event number (0 before their first). */
export async function lastEventNo(db: Db, userId: string): Promise<number> {
  const [row] = await queryRows<{ no: number }>(
    db,
    sql`select last_no::float8 as no from conversation_event_counter where user_id = ${userId}`,
  );
  return row ? Number(row.no) : 0;
}

/** As an SQL literal: a constant, so the statements that use it stay the same text. */
const DELETED_NAME_LITERAL = `'${DELETED_USER_NAME.replaceAll("'", "''")}'`;

/** The name a message is shown under: its sender's, or DELETED_USER_NAME after their deletion. */
export const DELETED_NAME_SQL = (alias: string) =>
  sql.raw(
    `case when ${alias}.deleted_at is null then ${alias}.name else ${DELETED_NAME_LITERAL} end`,
  );

/**
 * The person's events after number `afterNo`, oldest first, at most `limit`, as envelopes with
 * one recipient (them). Events pruned for age are simply missing: the caller checks the numbers.
 */
export async function eventsAfter(
  db: Db,
  userId: string,
  afterNo: number,
  limit: number,
): Promise<LiveEvent[]> {
  const rows = await queryRows<{
    no: number;
    kind: LiveEventKind;
    conversation_id: string;
    message_id: string | null;
    actor_id: string | null;
    message_kind: 'text' | 'booking' | null;
    body: string | null;
    sender_id: string | null;
    sender_name: string | null;
    created_at: string | null;
  }>(
    db,
    sql`select e.no::float8 as no, e.kind, e.conversation_id, e.message_id, e.actor_id,
          m.kind as message_kind, m.body, m.sender_id, ${DELETED_NAME_SQL('u')} as sender_name,
          to_char(m.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at
        from conversation_event e
        left join message m on e.kind = 'message' and m.id = e.message_id
        left join "user" u on u.id = m.sender_id
        where e.user_id = ${userId} and e.no > ${afterNo}
        order by e.no
        limit ${limit}`,
  );
  return rows.map((row) => ({
    type: 'event' as const,
    kind: row.kind,
    conversationId: row.conversation_id,
    to: [{ userId, no: Number(row.no) }],
    ...(row.kind === 'message' && row.message_id && row.body !== null
      ? {
          message: {
            id: row.message_id,
            conversationId: row.conversation_id,
            kind: row.message_kind!,
            body: row.body,
            senderId: row.sender_id!,
            senderName: row.sender_name!,
            createdAt: row.created_at!,
          },
        }
      : {}),
    ...(row.kind === 'read' ? { readerId: row.actor_id ?? '', upTo: row.message_id } : {}),
  }));
}

/** Events older than `days` go: a stream that was away longer is told to load its lists again. */
export async function pruneEvents(db: Db, days: number): Promise<number> {
  const pruned = await queryRows<{ n: number }>(
    db,
    sql`with gone as (delete from conversation_event
          where created_at < now() - make_interval(days => ${days}) returning 1)
        select count(*)::int as n from gone`,
  );
  return pruned[0]?.n ?? 0;
}
