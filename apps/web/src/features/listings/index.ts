// What other features may use of listings: their query keys, to refresh cars after a sale; the
// words for car data, for the search filters; and a card's price and verified badge, for the
// home page's cards.
export { listingKeys } from './api/query-keys';
export { fuelLabel, transmissionLabel } from './car-labels';
export { ListingPrice } from './components/listing-price';
export { VerifiedBadge } from './components/verified-badge';
