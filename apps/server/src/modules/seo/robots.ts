/**
 * Pages no search engine should index: the API, everyone's own pages (the dashboard, where the
 * payment pages live, and the spec's short addresses that lead there) and the account pages.
 */
const PRIVATE_PATHS = [
  '/api/',
  '/dashboard',
  '/orders',
  '/product',
  '/myProduct',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
  '/unsubscribe',
];
/** Pages behind sign-in unless people may browse signed out: search, categories, cars. */
const BROWSING_PATHS = ['/cars', '/category/', '/listing/'];

/** robots.txt: public pages allowed, the rest disallowed, and where the sitemap is. */
export function robotsTxt(options: { origin: string; browseSignedOut: boolean }): string {
  const disallowed = [...PRIVATE_PATHS, ...(options.browseSignedOut ? [] : BROWSING_PATHS)];
  return [
    'User-agent: *',
    'Allow: /',
    ...disallowed.map((p) => `Disallow: ${p}`),
    '',
    `Sitemap: ${options.origin}/sitemap.xml`,
    '',
  ].join('\n');
}
