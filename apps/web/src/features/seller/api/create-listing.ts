import type { CreateListingInput } from '@carmarket/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { sellerKeys } from './query-keys';

export interface CreateListingRequest {
  /** The category's name. */
  category: string;
  listing: CreateListingInput;
}

/** `POST /api/product?name=<category>`: adds a car. */
export function createListing({ category, listing }: CreateListingRequest) {
  return api.post<{ acknowledged: true; insertedId: string }>(
    `/product?name=${encodeURIComponent(category)}`,
    listing,
  );
}

export function useCreateListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createListing,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sellerKeys.listings }),
  });
}
