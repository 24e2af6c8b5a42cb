/**
 * Only same-site paths are accepted as a place to return to after signing in, so a link like
 * `/login?next=https://evil.example` cannot send people elsewhere.
 */
export function safeNextPath(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\'))
    return null;
  return next;
}

/** `/login?next=/category/<id>`: slashes stay readable, everything else is encoded. */
export function loginPath(next?: string): string {
  const safe = safeNextPath(next);
  if (!safe || safe === '/') return '/login';
  return `/login?next=${encodeURIComponent(safe).replace(/%2F/gi, '/')}`;
}
