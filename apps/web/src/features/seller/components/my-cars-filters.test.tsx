import type { MyListingCounts } from '@carmarket/shared';
import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import type { MyCarsView } from '../api/my-listings';
import { MyCarsFilters } from './my-cars-filters';

/*
 * My cars' search box, order and tabs (moved from my-cars.spec.ts): the tabs with their counts,
 * a search that waits for a pause, and the box's clear button, which keeps the tab and leaves
 * focus in the box.
 */

const counts: MyListingCounts = { all: 4, available: 3, reserved: 0, sold: 0, withdrawn: 1 };

/** The filters as My cars holds them: every change asked for is kept in `changes`. */
function Filters({ start, changes }: { start: MyCarsView; changes: Partial<MyCarsView>[] }) {
  const [view, setView] = useState(start);
  return (
    <MyCarsFilters
      view={view}
      counts={counts}
      onChange={(change) => {
        changes.push(change);
        setView((current) => ({ ...current, ...change }));
      }}
    />
  );
}

function renderFilters(start: Partial<MyCarsView> = {}) {
  const changes: Partial<MyCarsView>[] = [];
  const view = renderWithApp(
    <Filters start={{ status: null, q: '', sort: 'newest', ...start }} changes={changes} />,
  );
  return { ...view, changes };
}

const tabs = () => screen.getByRole('group', { name: 'Show cars by status' });
const searchBox = () => screen.getByRole('searchbox', { name: 'Search your cars' });

describe('My cars’ filters', () => {
  it('shows every tab with its count, the one shown pressed; a tab asks for its cars', async () => {
    const { user, changes } = renderFilters();
    for (const name of ['All 4', 'On sale 3', 'Reserved 0', 'Sold 0', 'Withdrawn 1']) {
      expect(within(tabs()).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(within(tabs()).getByRole('button', { name: 'All 4' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await user.click(within(tabs()).getByRole('button', { name: 'Withdrawn 1' }));
    expect(changes).toEqual([{ status: 'withdrawn' }]);
    expect(within(tabs()).getByRole('button', { name: 'Withdrawn 1' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('the keyboard reaches every tab in order, and Enter chooses one', async () => {
    const { user, changes } = renderFilters({ status: 'withdrawn' });
    within(tabs()).getByRole('button', { name: 'Withdrawn 1' }).focus();
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    await user.tab({ shift: true });
    expect(within(tabs()).getByRole('button', { name: 'On sale 3' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(changes).toEqual([{ status: 'available' }]);
  });

  it('searches once the seller pauses typing, and Enter searches at once', async () => {
    const { user, changes } = renderFilters();
    await user.type(searchBox(), 'corolla');
    expect(changes).toEqual([]);
    await screen.findByRole('button', { name: 'Clear the search' });
    await expect.poll(() => changes).toEqual([{ q: 'corolla' }]);
    await user.clear(searchBox());
    await user.type(searchBox(), 'KIA{Enter}');
    expect(changes.at(-1)).toEqual({ q: 'KIA' });
  });

  it('the clear button empties the box, keeps the tab, and leaves focus in the box', async () => {
    const { user, changes } = renderFilters({ q: 'KIA', status: 'available' });
    expect(searchBox()).toHaveValue('KIA');
    await user.click(screen.getByRole('button', { name: 'Clear the search' }));
    expect(searchBox()).toHaveValue('');
    expect(searchBox()).toHaveFocus();
    expect(changes).toEqual([{ q: '' }]);
    expect(screen.queryByRole('button', { name: 'Clear the search' })).toBeNull();
    expect(within(tabs()).getByRole('button', { name: 'On sale 3' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('the order: each choice asks for it', async () => {
    const { user, changes } = renderFilters();
    await user.selectOptions(screen.getByLabelText('Sort'), 'price_asc');
    expect(changes).toEqual([{ sort: 'price_asc' }]);
    expect(screen.getByLabelText('Sort')).toHaveValue('price_asc');
  });
});
