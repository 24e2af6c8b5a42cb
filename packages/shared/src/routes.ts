/**
 * Paths the web app answers. The server serves the app shell for these with 200 and for anything
 * else with 404 (the app then shows its not-found page), so crawlers and monitors see real statuses.
 */
export const CLIENT_ROUTE_PATTERNS: readonly RegExp[] = [
  /^\/$/,
  /^\/blog\/?$/,
  /^\/blog\/[a-z0-9-]+\/?$/,
  /^\/login\/?$/,
  /^\/register\/?$/,
  /^\/forgot-password\/?$/,
  /^\/reset-password\/?$/,
  /^\/cars\/?$/,
  /^\/unsubscribe\/?$/,
  /^\/category\/[^/]+\/?$/,
  /^\/listing\/[^/]+\/?$/,
  /^\/sellers\/[^/]+\/?$/,
  /^\/orders\/?$/,
  /^\/product\/?$/,
  /^\/myProduct\/?$/,
  /^\/dashboard(\/.*)?$/,
];

export function isClientRoute(pathname: string): boolean {
  return CLIENT_ROUTE_PATTERNS.some((pattern) => pattern.test(pathname));
}
