// What other features may use of the price guide (decision 032): the deal badge, for every card;
// the car page's band; and the seller's guide beside the form's price.
export { DealBadge } from './components/deal-badge';
export { PriceBand } from './components/price-band';
export { SellerPriceGuide } from './components/seller-price-guide';
