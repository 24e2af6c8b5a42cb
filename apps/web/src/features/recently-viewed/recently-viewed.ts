/**
 * The cars a person opened last, newest first, kept in this browser only (issue 32): their ids,
 * under a key of the person's own, so the next person to sign in on a shared browser starts with
 * none. Ids alone: each showing asks the server for the cars as they are now (api/get-cards.ts),
 * so a car sold since shows as sold and one removed drops out.
 */

/** How many cars the list keeps. */
export const MAX_RECENTLY_VIEWED = 12;

/** The list with `id` first, once, cut to the newest 12. */
export function withViewed(ids: readonly string[], id: string): string[] {
  return [id, ...ids.filter((each) => each !== id)].slice(0, MAX_RECENTLY_VIEWED);
}

/** The list without the cars in `gone` (cars the server no longer shows). */
export function withoutCars(ids: readonly string[], gone: readonly string[]): string[] {
  return ids.filter((id) => !gone.includes(id));
}

/** What the browser keeps: localStorage, or a stand-in in the unit tests. */
export type KeptStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const keyOf = (userId: string) => `recently-viewed:${userId}`;
const EMPTY: string[] = [];
const listeners = new Set<() => void>();
let cached: { raw: string | null; ids: string[] } = { raw: null, ids: EMPTY };

function browserStorage(): KeptStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Storage refused (a privacy setting): the list is simply not kept.
    return null;
  }
}

/** Anything but an array of strings (an older shape, a hand edit) reads as no list. */
function parse(raw: string | null): string[] {
  if (!raw) return EMPTY;
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value)
      ? value.filter((id): id is string => typeof id === 'string').slice(0, MAX_RECENTLY_VIEWED)
      : EMPTY;
  } catch {
    return EMPTY;
  }
}

/** The person's list; the same array while it is unchanged (useSyncExternalStore needs that). */
export function readRecentlyViewed(
  userId: string,
  storage: KeptStorage | null = browserStorage(),
): string[] {
  let raw: string | null = null;
  try {
    raw = storage?.getItem(keyOf(userId)) ?? null;
  } catch {
    raw = null;
  }
  if (raw !== cached.raw) cached = { raw, ids: parse(raw) };
  return cached.ids;
}

function write(userId: string, ids: string[], storage: KeptStorage | null) {
  try {
    if (ids.length) storage?.setItem(keyOf(userId), JSON.stringify(ids));
    else storage?.removeItem(keyOf(userId));
  } catch {
    // Full or refused: the list stays as it was.
  }
  for (const listener of listeners) listener();
}

/** Puts a car the person opened first in their list. */
export function recordViewed(
  userId: string,
  id: string,
  storage: KeptStorage | null = browserStorage(),
) {
  write(userId, withViewed(readRecentlyViewed(userId, storage), id), storage);
}

/** Takes cars the server no longer shows out of the person's list. */
export function forgetCars(
  userId: string,
  gone: readonly string[],
  storage: KeptStorage | null = browserStorage(),
) {
  if (gone.length) write(userId, withoutCars(readRecentlyViewed(userId, storage), gone), storage);
}

/** Empties the person's list (the Clear button). */
export function clearRecentlyViewed(
  userId: string,
  storage: KeptStorage | null = browserStorage(),
) {
  write(userId, [], storage);
}

/** Calls `listener` on every change, here or in another tab. */
export function subscribeRecentlyViewed(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}
