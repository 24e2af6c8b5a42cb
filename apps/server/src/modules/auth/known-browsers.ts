import { readCookie, signerFor } from '../../lib/signing.ts';

export const KNOWN_BROWSER_COOKIE = 'carmarket.known_browser';
const KEEP_DAYS = 180;
/** A browser shared by a family remembers a few accounts, the latest first. */
const MAX_ACCOUNTS = 5;

export interface KnownBrowsers {
  /** Whether the browser that sent `cookieHeader` has signed in to `email` before. */
  knows(cookieHeader: string | undefined, email: string): boolean;
  /** The Set-Cookie that makes this browser known for `email` (keeping its other accounts). */
  remember(cookieHeader: string | undefined, email: string): string;
}

/**
 * "Device cookies" (OWASP): a browser where someone signed in with the right password carries a
 * mark of that account, signed with the app secret and naming no one; a sign-in from it is not
 * held by its address's limit, only by the account's (decision 012).
 */
export function createKnownBrowsers(secret: string, secure: boolean): KnownBrowsers {
  const signer = signerFor(secret, 'known-browser');
  // Under https, a cookie only a secure page can set: no plain-http page (or a network in the
  // middle) can plant or overwrite the mark.
  const cookieName = secure ? `__Secure-${KNOWN_BROWSER_COOKIE}` : KNOWN_BROWSER_COOKIE;
  const accountAndExpiry = (email: string, expires: number) => `${email.toLowerCase()}\n${expires}`;

  /** The cookie's entries (`<expiry seconds>.<mark>`) still in date. */
  function entries(cookieHeader: string | undefined): Array<{ expires: number; mark: string }> {
    const value = readCookie(cookieHeader, cookieName);
    if (!value) return [];
    const now = Date.now() / 1000;
    return value
      .split('~')
      .slice(0, MAX_ACCOUNTS)
      .map((entry) => {
        const [expires, value] = entry.split('.');
        return { expires: Number(expires), mark: value ?? '' };
      })
      .filter((entry) => Number.isSafeInteger(entry.expires) && entry.expires > now);
  }

  function isFor(entry: { expires: number; mark: string }, email: string): boolean {
    return signer.verify(accountAndExpiry(email, entry.expires), entry.mark);
  }

  return {
    knows: (cookieHeader, email) => entries(cookieHeader).some((entry) => isFor(entry, email)),
    remember(cookieHeader, email) {
      const expires = Math.floor(Date.now() / 1000) + KEEP_DAYS * 24 * 3600;
      const others = entries(cookieHeader).filter((entry) => !isFor(entry, email));
      const value = [{ expires, mark: signer.sign(accountAndExpiry(email, expires)) }, ...others]
        .slice(0, MAX_ACCOUNTS)
        .map((entry) => `${entry.expires}.${entry.mark}`)
        .join('~');
      return [
        `${cookieName}=${value}`,
        `Max-Age=${KEEP_DAYS * 24 * 3600}`,
        'Path=/api/auth',
        'HttpOnly',
        'SameSite=Lax',
        ...(secure ? ['Secure'] : []),
      ].join('; ');
    },
  };
}
