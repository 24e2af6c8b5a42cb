import type { SimilarCars } from '@carmarket/shared';

import { api } from '../../../lib/api-client';

/** `GET /api/listings/:id/similar`: up to 8 cars on sale like this one (issue 32). */
export function getSimilarCars(id: string, signal?: AbortSignal): Promise<SimilarCars> {
  return api.get<SimilarCars>(
    `/listings/${encodeURIComponent(id)}/similar`,
    signal ? { signal } : {},
  );
}
