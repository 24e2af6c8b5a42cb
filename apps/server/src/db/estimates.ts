import { sql } from 'drizzle-orm';
import { queryRows, type Db } from './client.ts';

/**
 * The share (percent) of the listing table's blocks to read for a sample of about `rows` cars,
 * from the planner's row estimate (kept by ANALYZE and autovacuum); 100 when the table is that
 * small or has not been analysed, so small tables are always counted exactly. Decision 009.
 */
export async function samplePercent(db: Db, rows: number): Promise<number> {
  const [stats] = await queryRows<{ rows: number }>(
    db,
    sql`select greatest(reltuples, 0)::float8 as rows from pg_class where oid = 'listing'::regclass`,
  );
  const total = stats?.rows ?? 0;
  if (total <= rows) return 100;
  return Math.max(0.1, Math.min(100, Number(((rows * 100) / total).toFixed(3))));
}
