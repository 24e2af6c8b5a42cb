import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from './client.ts';
import { listing } from './schema.ts';

/** Above this many cars a count is an estimate, below it exact (decision 009). */
export const EXACT_COUNT_LIMIT = 10_000;

/** How long a process trusts the planner's row count of the listing table before asking again. */
const ROW_ESTIMATE_TTL_MS = 60_000;
const rowEstimates = new WeakMap<Db, { rows: Promise<number>; at: number }>();

/** The planner's row count of the listing table (kept by ANALYZE and autovacuum), a minute old at most. */
function listingRowEstimate(db: Db): Promise<number> {
  const cached = rowEstimates.get(db);
  if (cached && Date.now() - cached.at < ROW_ESTIMATE_TTL_MS) return cached.rows;
  const rows = queryRows<{ rows: number }>(
    db,
    sql`select greatest(reltuples, 0)::float8 as rows from pg_class where oid = 'listing'::regclass`,
  ).then(([stats]) => stats?.rows ?? 0);
  rowEstimates.set(db, { rows, at: Date.now() });
  rows.catch(() => rowEstimates.delete(db));
  return rows;
}

/**
 * The share (percent) of the listing table's blocks to read for a sample of about `rows` cars,
 * from the planner's row estimate; 100 when the table is that small or has not been analysed,
 * so small tables are always counted exactly. Decision 009.
 */
export async function samplePercent(db: Db, rows: number): Promise<number> {
  const total = await listingRowEstimate(db);
  if (total <= rows) return 100;
  return Math.max(0.1, Math.min(100, Number(((rows * 100) / total).toFixed(3))));
}

/** The listing table, or a fixed block sample of `percent` of it (the same blocks each time). */
export function listingSample(percent: number): SQL {
  return percent >= 100
    ? sql`${listing}`
    : sql`${listing} tablesample system (${sql.raw(String(percent))}) repeatable (7)`;
}

/** How many cars match `where`, reading no more than `limit + 1` of them. */
export async function countUpTo(db: Db, where: SQL, limit: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from ${listing} where ${where} limit ${limit + 1}) as matches`,
  );
  return row?.n ?? 0;
}
