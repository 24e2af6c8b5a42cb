/** Pages that are steps on the way to an account, never a place to return to. */
const ACCOUNT_PAGE = /^\/(login|register|forgot-password|reset-password)\/?(?:[?#]|$)/;

/**
 * Only same-site paths are accepted as a place to return to after signing in, so a link like
 * `/login?next=https://evil.example` cannot send people elsewhere. Browsers read `\` as `/` and
 * drop tabs and line breaks, so `/\evil.example` and `/<tab>/evil.example` are refused too.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || /^\/[/\\]|[\\\t\n\r]/.test(next)) return null;
  // Signing in from the register page (the header's Sign in link) returns to where it would have.
  if (ACCOUNT_PAGE.test(next)) {
    return safeNextPath(new URL(next, 'http://site.invalid').searchParams.get('next'));
  }
  return next;
}

/** `<page>?next=/category/<id>`: slashes stay readable, everything else is encoded. */
function withNext(page: string, next: string | null | undefined): string {
  const safe = safeNextPath(next);
  if (!safe || safe === '/') return page;
  return `${page}?next=${encodeURIComponent(safe).replace(/%2F/gi, '/')}`;
}

/** The sign-in page, returning to `next` afterwards. */
export function loginPath(next?: string | null): string {
  return withNext('/login', next);
}

/** The register page, returning to `next` afterwards. */
export function registerPath(next?: string | null): string {
  return withNext('/register', next);
}
