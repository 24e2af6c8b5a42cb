import type { PayoutAccount, PayoutAccountLink } from '@carmarket/shared';
import { useMutation, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { payoutKeys } from './query-keys';

/** `GET /api/my/payout-account`: whether the seller has somewhere for payouts to go. */
export function usePayoutAccount() {
  return useQuery({
    queryKey: payoutKeys.account,
    queryFn: ({ signal }) => api.get<PayoutAccount>('/my/payout-account', { signal }),
  });
}

/**
 * `POST /api/my/payout-account`: makes the account (or finds it) and answers where the seller
 * adds their details (the provider's pages); the page then goes there.
 */
export function useStartPayoutAccount() {
  return useMutation({
    mutationFn: () => api.post<PayoutAccountLink>('/my/payout-account'),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
