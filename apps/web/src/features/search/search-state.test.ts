import { SearchQuerySchema } from '@carmarket/shared';
import { describe, expect, it } from 'vitest';
import {
  apiQueryOf,
  chipsOf,
  clearFilters,
  invertedRanges,
  removeChip,
  sortOf,
  toggleValue,
} from './search-state';

describe('search state in the address', () => {
  it('refuses the inverted ranges the server refuses, in its words, and no others', () => {
    for (const query of [
      'priceMin=5000&priceMax=1000',
      'yearMin=2020&yearMax=2019',
      'priceMin=5000&priceMax=1000&yearMin=2020&yearMax=2019',
      'priceMin=1000&priceMax=1000&yearMin=2019&yearMax=2020',
      'priceMin=5000',
    ]) {
      const params = new URLSearchParams(query);
      const server = SearchQuerySchema.safeParse(Object.fromEntries(params));
      const said = Object.values(invertedRanges((key) => params.get(key)));
      expect(said.sort(), query).toEqual(
        (server.success ? [] : server.error.issues.map((issue) => issue.message)).sort(),
      );
    }
  });

  it('sends the API only its own parameters, in one order whatever the address', () => {
    const a = new URLSearchParams('make=Toyota&make=BMW&placeName=Paris&priceMax=2000000&utm=x');
    const b = new URLSearchParams('priceMax=2000000&make=BMW&make=Toyota');
    expect(apiQueryOf(a)).toBe('make=BMW&make=Toyota&priceMax=2000000');
    expect(apiQueryOf(a)).toBe(apiQueryOf(b));
  });

  it('sorts by relevance when there is text, newest otherwise, unless asked', () => {
    expect(sortOf(new URLSearchParams('q=golf'))).toBe('relevance');
    expect(sortOf(new URLSearchParams(''))).toBe('newest');
    expect(sortOf(new URLSearchParams('sort=price_asc&q=golf'))).toBe('price_asc');
    expect(sortOf(new URLSearchParams('sort=bogus'))).toBe('newest');
  });

  it('toggles values, and drops models with the last make', () => {
    let params = toggleValue(new URLSearchParams(), 'make', 'Toyota');
    params.append('model', 'Corolla');
    params = toggleValue(params, 'make', 'BMW');
    expect(params.getAll('make')).toEqual(['Toyota', 'BMW']);
    params = toggleValue(toggleValue(params, 'make', 'Toyota'), 'make', 'BMW');
    expect(params.toString()).toBe('');
  });

  it('shows each filter as a chip that removes itself', () => {
    const params = new URLSearchParams(
      'q=golf&fuel=diesel&priceMax=2000000&mileageMax=80467&near=5746545&radiusKm=80&placeName=Portland%2C+OR',
    );
    const chips = chipsOf(params);
    expect(chips.map((chip) => chip.label)).toEqual([
      '“golf”',
      'Diesel',
      'Up to $20,000',
      'Up to 50,000 mi',
      'Within 50 mi of Portland, OR',
    ]);
    const withoutPlace = removeChip(params, chips[4]!);
    expect(
      withoutPlace.has('near') || withoutPlace.has('radiusKm') || withoutPlace.has('placeName'),
    ).toBe(false);
    expect(removeChip(params, chips[1]!).has('fuel')).toBe(false);
    expect(clearFilters(new URLSearchParams('sort=price_asc&make=BMW')).toString()).toBe(
      'sort=price_asc',
    );
  });
});
