export const siteName = 'CarMarket';

/**
 * The currency the forms and search filters write prices in (the server's CURRENCY default);
 * each car carries its own. Lengths there follow it (lib/units.ts).
 */
export const siteCurrency = 'USD';
