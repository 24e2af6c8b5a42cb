import { describe, expect, it } from 'vitest';

import {
  clearRecentlyViewed,
  forgetCars,
  MAX_RECENTLY_VIEWED,
  readRecentlyViewed,
  recordViewed,
  withViewed,
  type KeptStorage,
} from './recently-viewed';

/** localStorage's part the list uses, in memory. */
function memoryStorage(): KeptStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

const car = (n: number) => `car-${n}`;

describe('recently viewed cars', () => {
  it('puts the car opened last first', () => {
    const storage = memoryStorage();
    for (const n of [1, 2, 3]) recordViewed('ann', car(n), storage);
    expect(readRecentlyViewed('ann', storage)).toEqual([car(3), car(2), car(1)]);
  });

  it('keeps a car once: opened again, it moves to the front', () => {
    expect(withViewed([car(3), car(2), car(1)], car(1))).toEqual([car(1), car(3), car(2)]);
    expect(withViewed([car(1)], car(1))).toEqual([car(1)]);
  });

  it('keeps the newest 12', () => {
    const storage = memoryStorage();
    for (let n = 1; n <= 15; n += 1) recordViewed('ann', car(n), storage);
    const ids = readRecentlyViewed('ann', storage);
    expect(MAX_RECENTLY_VIEWED).toBe(12);
    expect(ids).toHaveLength(12);
    expect(ids[0]).toBe(car(15));
    expect(ids.at(-1)).toBe(car(4));
    // Kept as 12, not only read as 12.
    expect(JSON.parse(storage.items.get('recently-viewed:ann')!)).toEqual(ids);
  });

  it('is each person’s own, and Clear empties only theirs', () => {
    const storage = memoryStorage();
    recordViewed('ann', car(1), storage);
    recordViewed('bob', car(2), storage);
    expect(readRecentlyViewed('bob', storage)).toEqual([car(2)]);
    clearRecentlyViewed('ann', storage);
    expect(readRecentlyViewed('ann', storage)).toEqual([]);
    expect(storage.items.has('recently-viewed:ann')).toBe(false);
    expect(readRecentlyViewed('bob', storage)).toEqual([car(2)]);
  });

  it('drops cars the server no longer shows, keeping the order of the rest', () => {
    const storage = memoryStorage();
    for (const n of [1, 2, 3, 4]) recordViewed('ann', car(n), storage);
    forgetCars('ann', [car(3), car(1)], storage);
    expect(readRecentlyViewed('ann', storage)).toEqual([car(4), car(2)]);
  });

  it('reads a damaged entry as no list', () => {
    const storage = memoryStorage();
    storage.setItem('recently-viewed:ann', '{not json');
    expect(readRecentlyViewed('ann', storage)).toEqual([]);
    storage.setItem('recently-viewed:ann', JSON.stringify({ ids: [car(1)] }));
    expect(readRecentlyViewed('ann', storage)).toEqual([]);
    recordViewed('ann', car(1), storage);
    expect(readRecentlyViewed('ann', storage)).toEqual([car(1)]);
  });
});
