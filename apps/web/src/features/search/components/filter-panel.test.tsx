import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '../../../testing/render';
import { FilterPanel } from './filter-panel';

/**
 * The panel as the search page holds it: the address's query is the search, and every change
 * the panel asks for is one new address, kept in `sent` (what the page would ask the API for).
 */
function Search({ sent }: { sent: string[] }) {
  const [params, setParams] = useState(() => new URLSearchParams(window.location.search));
  return (
    <FilterPanel
      params={params}
      facets={undefined}
      onChange={(update) => {
        const next = update(new URLSearchParams(window.location.search));
        window.history.replaceState(null, '', `/cars?${next}`);
        sent.push(next.toString());
        setParams(next);
      }}
    />
  );
}

function renderSearch() {
  window.history.replaceState(null, '', '/cars');
  const sent: string[] = [];
  return { sent, ...renderWithApp(<Search sent={sent} />) };
}

const group = (name: string) => screen.getByRole('group', { name });

describe('the search filters: an inverted range (moved from search-form.spec.ts)', () => {
  it('refuses a price range typed upside down where it is typed, and never sends it', async () => {
    const { user, sent } = renderSearch();
    const price = group('Price');
    const from = within(price).getByLabelText('From');
    const to = within(price).getByLabelText('To');
    await user.type(from, '50000{Enter}');
    expect(sent.at(-1)).toBe('priceMin=5000000');

    await user.type(to, '10000{Enter}');
    const message = within(price).getByRole('alert');
    expect(message).toHaveTextContent('The lowest price must not be above the highest');
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(to).toHaveAccessibleDescription('The lowest price must not be above the highest');
    expect(sent.some((query) => query.includes('priceMax'))).toBe(false);

    // Put right: both ends go at once, and the message goes.
    await user.clear(to);
    await user.type(to, '60000{Enter}');
    expect(sent.at(-1)).toBe('priceMin=5000000&priceMax=6000000');
    expect(within(price).queryByRole('alert')).toBeNull();
    expect(to).not.toHaveAttribute('aria-invalid');
  });

  it('refuses a year range chosen upside down, and sends it once put right', async () => {
    const { user, sent } = renderSearch();
    const year = group('Year');
    await user.selectOptions(within(year).getByLabelText('From'), '2020');
    expect(sent.at(-1)).toBe('yearMin=2020');
    const to = within(year).getByLabelText('To');
    await user.selectOptions(to, '2015');
    expect(within(year).getByRole('alert')).toHaveTextContent(
      'The earliest year must not be after the latest',
    );
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(sent.some((query) => query.includes('yearMax'))).toBe(false);

    await user.selectOptions(to, '2022');
    expect(sent.at(-1)).toBe('yearMin=2020&yearMax=2022');
    expect(within(year).queryByRole('alert')).toBeNull();
  });
});
