import type { SearchItem } from '@carmarket/shared';
import { presentListingCard } from '../listings/listings.presenter.ts';
import type { SearchRow } from './search.service.ts';

/** A car card, with its distance (km, one decimal) when the search was near a place. */
export function presentSearchItem(row: SearchRow): SearchItem {
  return {
    ...presentListingCard(row),
    ...(row.distanceM !== null && { distanceKm: Math.round(row.distanceM / 100) / 10 }),
  };
}
