import {
  CATEGORY_ICONS,
  categoryIconArt,
  CategoryIconSchema,
  type CategoryIcon,
  type CategoryIconOption,
} from '@carmarket/shared';
import type { Storage } from '../../adapters/storage.ts';
import { renderCategoryIcon } from '../../seed/car-art.ts';

/**
 * Each icon of the set is stored once under a name of its own, drawn as the seed draws the
 * spec's three: every category that shows it, and the admin's choice of icons, load one image.
 * The version changes when the drawing does (media is cached as immutable).
 */
const KEY_PREFIX = 'category-icon-v1-';
const keyOf = (icon: CategoryIcon) => `${KEY_PREFIX}${icon}.webp`;

/** Stored at most once a process for each storage (the bytes are the same every time). */
const stored = new WeakMap<Storage, Map<CategoryIcon, Promise<string>>>();

/** The URL of `icon`'s image, rendering and storing it the first time. */
export function iconUrl(storage: Storage, icon: CategoryIcon): Promise<string> {
  const ofStorage = stored.get(storage) ?? new Map<CategoryIcon, Promise<string>>();
  stored.set(storage, ofStorage);
  let url = ofStorage.get(icon);
  if (!url) {
    const { shape, hex } = categoryIconArt(icon);
    url = renderCategoryIcon(shape, hex).then(async (image) => {
      await storage.put(keyOf(icon), image, 'image/webp');
      return storage.url(keyOf(icon));
    });
    // A failed render or write is tried again by the next request.
    url.catch(() => ofStorage.delete(icon));
    ofStorage.set(icon, url);
  }
  return url;
}

/** The whole set, each icon with its name in words and its image. */
export async function iconOptions(storage: Storage): Promise<CategoryIconOption[]> {
  return Promise.all(
    CATEGORY_ICONS.map(async (name) => ({
      name,
      label: categoryIconArt(name).label,
      url: await iconUrl(storage, name),
    })),
  );
}

/** Which icon of the set an icon URL shows; null for one drawn otherwise (the seed's). */
export function iconNameOf(url: string): CategoryIcon | null {
  const match = /category-icon-v\d+-([a-z]+-[a-z]+)\.webp$/.exec(url);
  const parsed = CategoryIconSchema.safeParse(match?.[1]);
  return parsed.success ? parsed.data : null;
}
