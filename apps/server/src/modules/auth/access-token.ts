import { createHash } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';

const ISSUER = 'carmarket';
const AUDIENCE = 'carmarket-api';

export interface AccessTokenClaims {
  userId: string;
  sessionId: string;
}

export type VerifyResult =
  { ok: true; claims: AccessTokenClaims } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * Short-lived bearer tokens (`GET /api/jwt`), tied to the session they were issued from, and
 * never outliving it.
 */
export function createAccessTokens(secret: string, ttlSeconds: number) {
  // A key of its own, derived from the app secret, so a leaked token key is not the session key.
  const raw = createHash('sha256').update(`access-token:${secret}`).digest();
  // Imported once: handed raw bytes, jose imports a key on every call (half of a verification's
  // ~100 µs; decision 018).
  const key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);

  return {
    ttlSeconds,
    async issue(
      claims: AccessTokenClaims,
      sessionExpiresAt: Date,
    ): Promise<{ token: string; expiresAt: Date }> {
      const expiresAt = new Date(
        Math.min(Date.now() + ttlSeconds * 1000, sessionExpiresAt.getTime()),
      );
      const token = await new SignJWT({ sid: claims.sessionId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(await key);
      return { token, expiresAt };
    },
    async verify(token: string): Promise<VerifyResult> {
      try {
        const { payload } = await jwtVerify(token, await key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
        });
        if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') {
          return { ok: false, reason: 'invalid' };
        }
        return { ok: true, claims: { userId: payload.sub, sessionId: payload.sid } };
      } catch (error) {
        return { ok: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
}

export type AccessTokens = ReturnType<typeof createAccessTokens>;
