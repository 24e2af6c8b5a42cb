export const siteName = 'CarMarket';
