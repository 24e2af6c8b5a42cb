import type { AccessToken } from '@carmarket/shared';

import { api } from '../../../lib/api-client';

/** `GET /api/jwt?email=`: a short-lived bearer token for the signed-in person (own email only). */
export function getAccessToken(email: string): Promise<AccessToken> {
  return api.get<AccessToken>(`/jwt?email=${encodeURIComponent(email)}`);
}
