// Searching as one person, shared by the search tests (search, deal-search).
import { expect } from 'vitest';
import { SearchResultSchema, type SearchItem, type SearchResult } from '@carmarket/shared';
import type { TestClient } from '../../test/client.ts';

/**
 * `GET /api/listings` as the person `who()` gives (a test's client, made in its beforeAll), and
 * every page of a search, `limit` cars a page unless a call says otherwise.
 */
export function searchingAs(who: () => TestClient, limit: number) {
  async function search(query: string): Promise<SearchResult> {
    const response = await who().request(`/api/listings?${query}`);
    expect(response.status, await response.clone().text()).toBe(200);
    return SearchResultSchema.parse(await response.json());
  }

  /** Every page of a search, following cursors; fails on a repeated car. */
  async function everyPage(query: string, pageSize = limit): Promise<SearchItem[]> {
    const items: SearchItem[] = [];
    let cursor: string | null = null;
    do {
      const page = await search(`${query}&limit=${pageSize}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(pageSize);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor);
    expect(new Set(items.map((item) => item._id)).size).toBe(items.length);
    return items;
  }

  return { search, everyPage };
}
