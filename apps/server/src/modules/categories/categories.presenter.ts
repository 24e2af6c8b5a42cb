import type { CategorySummary } from '@carmarket/shared';
import type { category } from '../../db/schema.ts';
import type { CategoryWithCount } from './categories.service.ts';

export function presentCategorySummary(row: CategoryWithCount): CategorySummary {
  return { ...presentCategory(row), count: row.availableCount };
}

export function presentCategory(row: typeof category.$inferSelect) {
  return { _id: row.id, name: row.name, slug: row.slug, icon: row.icon };
}
