import type { CategorySummary } from '@carmarket/shared';
import type { CategoryWithCount } from './categories.service.ts';

export function presentCategorySummary(row: CategoryWithCount): CategorySummary {
  return { _id: row.id, name: row.name, slug: row.slug, icon: row.icon, count: row.availableCount };
}
