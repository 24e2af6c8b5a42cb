// What other features may use of listings: their query keys, to refresh cars after a sale.
export { listingKeys } from './api/query-keys';
