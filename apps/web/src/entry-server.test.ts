import { describe, expect, it } from 'vitest';

import { renderPersonalPage } from './entry-server';

/** Renders `url` for a visitor where browsing is open, noting each API path it asks for. */
async function askedFor(url: string): Promise<string[]> {
  const asked: string[] = [];
  await renderPersonalPage(url, async (path) => {
    asked.push(path);
    if (path.includes('sign-in-options')) return { browseSignedOut: true };
    return undefined;
  });
  return asked;
}

describe('the server render of a search', () => {
  it('asks the API for the search when its ranges are right', async () => {
    const asked = await askedFor('/cars?priceMin=1000000&priceMax=5000000');
    expect(asked.some((path) => path.startsWith('/api/listings?'))).toBe(true);
  });

  it('never asks for a search with an inverted range, which the API would refuse', async () => {
    for (const url of [
      '/cars?priceMin=5000000&priceMax=1000000',
      '/cars?yearMin=2022&yearMax=2018',
      '/category/cars?priceMin=5000000&priceMax=1000000',
    ]) {
      const asked = await askedFor(url);
      expect(
        asked.filter((path) => path.startsWith('/api/listings?')),
        url,
      ).toEqual([]);
    }
  });
});
