import type { Facets } from '@carmarket/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { FilterPanel } from './filter-panel';

/*
 * A make chosen comes first in its list, however few cars it has (moved from search.spec.ts):
 * opened from a link, the rarest make would otherwise be past "Show all", out of sight, ticked.
 */

const MAKES = ['Toyota', 'Ford', 'Honda', 'Tesla', 'BMW', 'Kia', 'Audi', 'Mazda', 'Volvo', 'Lada'];

const facets: Facets = {
  estimated: false,
  make: MAKES.map((value, index) => ({ value, count: 40 - index * 4 })),
  model: [],
  bodyType: [],
  fuel: [],
  transmission: [],
  condition: [],
  deal: [],
  year: [],
  price: [],
};

function makesShown(query: string) {
  renderWithApp(
    <FilterPanel params={new URLSearchParams(query)} facets={facets} onChange={() => {}} />,
  );
  return within(screen.getByRole('group', { name: 'Make' })).getAllByRole('checkbox');
}

describe('the make list', () => {
  it('lists the makes with the most cars first, eight of them until Show all', () => {
    const makes = makesShown('');
    expect(makes).toHaveLength(8);
    expect(makes[0]).toHaveAccessibleName(/^Toyota/);
    expect(screen.getByRole('button', { name: 'Show all 10' })).toBeVisible();
  });

  it('puts a chosen make first, ticked, however few cars it has', () => {
    const makes = makesShown('make=Lada');
    expect(makes[0]).toHaveAccessibleName(/^Lada/);
    expect(makes[0]).toBeChecked();
    expect(makes.slice(1).every((box) => !(box as HTMLInputElement).checked)).toBe(true);
  });
});
