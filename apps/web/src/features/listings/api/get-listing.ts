import type { ListingDetail } from '@carmarket/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { listingKeys } from './query-keys';

/** The API path of one car (after `/api`). */
export const listingPath = (id: string) => `/listings/${encodeURIComponent(id)}`;

/** `GET /api/listings/:id`: one car with its photos, description and category (signed in). */
export function getListing(id: string, signal?: AbortSignal): Promise<ListingDetail> {
  return api.get<ListingDetail>(listingPath(id), signal ? { signal } : {});
}

export const listingQueryOptions = (id: string) =>
  queryOptions({
    queryKey: listingKeys.car(id),
    queryFn: ({ signal }) => getListing(id, signal),
  });

export function useListing(id: string) {
  return useQuery(listingQueryOptions(id));
}
