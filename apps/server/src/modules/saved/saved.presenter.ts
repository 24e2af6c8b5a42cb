import type { SavedCar, SavedSearch } from '@carmarket/shared';
import { presentListingCard } from '../listings/listings.presenter.ts';
import type { SavedCarRow } from './saved-cars.service.ts';
import type { SavedSearchRow } from './saved-searches.service.ts';

/** A saved car as it is now, with the price when it was saved and whether it is back on sale. */
export function presentSavedCar(row: SavedCarRow): SavedCar {
  const onSale = row.car.status === 'available' || row.car.status === 'reserved';
  return {
    listingId: row.car.id,
    savedAt: row.savedAt.toISOString(),
    priceAtSaving: row.priceAtSavingCents,
    backOnSaleAt: onSale && row.backOnSaleAt ? row.backOnSaleAt.toISOString() : null,
    car: presentListingCard(row.car),
  };
}

/** A saved search with how many cars match it now and how many are new since the last visit. */
export function presentSavedSearch(row: SavedSearchRow): SavedSearch {
  return {
    _id: row.id,
    name: row.name,
    query: row.query,
    alerts: row.alerts,
    createdAt: row.createdAt.toISOString(),
    lastVisitedAt: row.lastVisitedAt?.toISOString() ?? null,
    matching: row.matching?.total ?? null,
    matchingIsEstimate: row.matching?.totalIsEstimate ?? false,
    newSinceVisit: row.newSinceVisit,
  };
}
