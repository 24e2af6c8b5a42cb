import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { category, listing } from '../../db/schema.ts';

export type CategoryWithCount = typeof category.$inferSelect & { availableCount: number };

/** Every category in display order, with how many of its cars can be booked now. */
export async function listCategories(db: Db): Promise<CategoryWithCount[]> {
  const available = db
    .select({ categoryId: listing.categoryId, count: sql<number>`count(*)::int`.as('count') })
    .from(listing)
    .where(eq(listing.status, 'available'))
    .groupBy(listing.categoryId)
    .as('available');
  const rows = await db
    .select({ category, availableCount: sql<number>`coalesce(${available.count}, 0)::int` })
    .from(category)
    .leftJoin(available, eq(available.categoryId, category.id))
    .orderBy(asc(category.position), asc(category.name));
  return rows.map((row) => ({ ...row.category, availableCount: row.availableCount }));
}

export async function findCategory(db: Db, id: string) {
  const [row] = await db.select().from(category).where(eq(category.id, id));
  return row;
}
