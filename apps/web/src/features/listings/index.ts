// What other features may use of listings: their query keys, to refresh cars after a sale; and
// the words for car data, for the search filters.
export { listingKeys } from './api/query-keys';
export { fuelLabel, transmissionLabel } from './car-labels';
