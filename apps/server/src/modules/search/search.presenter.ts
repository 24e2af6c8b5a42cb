import type { SearchItem } from '@carmarket/shared';
import { presentListingCard } from '../listings/listings.presenter.ts';
import type { SearchRow } from './search.service.ts';

/** A car card, with its distance (km, one decimal) when the search was near a place. */
export function presentSearchItem(row: SearchRow): SearchItem {
  // Added to the card's object, not spread into a new one (see listings.presenter.ts).
  const card: SearchItem = presentListingCard(row);
  if (row.distanceM !== null) card.distanceKm = Math.round(row.distanceM / 100) / 10;
  return card;
}
