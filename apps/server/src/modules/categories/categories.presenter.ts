import type { AdminCategory, CategorySummary } from '@carmarket/shared';
import type { category } from '../../db/schema.ts';
import type { CategoryWithCount } from './categories.service.ts';
import { iconNameOf } from './category-icons.ts';

export function presentCategorySummary(row: CategoryWithCount): CategorySummary {
  return { ...presentCategory(row), count: row.availableCount };
}

export function presentCategory(row: typeof category.$inferSelect) {
  return { _id: row.id, name: row.name, slug: row.slug, icon: row.icon };
}

/** A category on the admin's Categories page: its place, its icon of the set, all its cars. */
export function presentAdminCategory(
  row: typeof category.$inferSelect & { cars: number },
): AdminCategory {
  return {
    ...presentCategory(row),
    iconName: iconNameOf(row.icon),
    position: row.position,
    cars: row.cars,
  };
}
