import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/*
 * The one place tokens and cookies the server signs itself are made and checked: each use has a
 * key of its own derived from the app secret, so a value signed for one use (or by better-auth,
 * which signs with the secret itself) is never valid for another.
 */

/** A signer for one purpose (`unsubscribe`, `known-browser`, ...). */
export function signerFor(secret: string, purpose: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, '', `carmarket:${purpose}`, 32));
  return {
    /** HMAC-SHA256 of the value, base64url. */
    sign: (value: string) => createHmac('sha256', key).update(value).digest('base64url'),
    /** Whether `signature` is the value's, compared in constant time. */
    verify: (value: string, signature: string) =>
      sameSecret(signature, createHmac('sha256', key).update(value).digest('base64url')),
  };
}

/** Two secrets compared in constant time (their lengths may differ, which is not hidden). */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** One cookie's raw value from a Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  const prefix = `${name}=`;
  const pair = header.split(/;\s*/).find((part) => part.startsWith(prefix));
  return pair === undefined ? null : pair.slice(prefix.length);
}
