import { asc, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { countUpTo, EXACT_COUNT_LIMIT, listingSample, samplePercent } from '../../db/estimates.ts';
import { category, listing } from '../../db/schema.ts';

export type CategoryWithCount = typeof category.$inferSelect & { availableCount: number };

/**
 * How many cars of each category can be booked now. Counted exactly while the table is small;
 * at scale, estimated from a block sample of about 20,000 cars, and counted exactly again for a
 * category the sample finds small (so "3 cars available" stays true with a million cars elsewhere).
 */
async function availableCounts(db: Db): Promise<Map<string, number>> {
  const percent = await samplePercent(db, 20_000);
  const rows = await queryRows<{ categoryId: string; n: number }>(
    db,
    sql`select category_id as "categoryId", count(*)::int as n from ${listingSample(percent)} where status = 'available' group by category_id`,
  );
  const counts = new Map(rows.map((row) => [row.categoryId, Math.round((row.n * 100) / percent)]));
  if (percent >= 100) return counts;
  const categories = await db.select({ id: category.id }).from(category);
  await Promise.all(
    categories
      .filter(({ id }) => (counts.get(id) ?? 0) <= 2 * EXACT_COUNT_LIMIT)
      .map(async ({ id }) => {
        const n = await countUpTo(
          db,
          sql`${listing.categoryId} = ${id} and ${listing.status} = 'available'`,
          EXACT_COUNT_LIMIT,
        );
        counts.set(id, n <= EXACT_COUNT_LIMIT ? n : Math.max(counts.get(id) ?? 0, n));
      }),
  );
  return counts;
}

/** Every category in display order, with how many of its cars can be booked now. */
export async function listCategories(db: Db): Promise<CategoryWithCount[]> {
  const [rows, counts] = await Promise.all([
    db.select().from(category).orderBy(asc(category.position), asc(category.name)),
    availableCounts(db),
  ]);
  return rows.map((row) => ({ ...row, availableCount: counts.get(row.id) ?? 0 }));
}

const categoryById = prepared('category_by_id', (db) =>
  db
    .select()
    .from(category)
    .where(eq(category.id, sql.placeholder('id'))),
);

export async function findCategory(db: Db, id: string) {
  const [row] = await categoryById(db, { id });
  return row;
}
