import type { PayoutAccount, PayoutAccountLink } from '@carmarket/shared';
import { useMutation, useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { payoutKeys } from './query-keys';

/** How often the page asks again while it waits for the provider to finish an account. */
const WATCH_EVERY_MS = 5_000;

/**
 * `GET /api/my/payout-account`: whether the seller has somewhere for payouts to go. With
 * `watch` (back from the provider's pages), asked again every few seconds while it is still
 * being set up: the server asks the provider at most once a minute, so a seller who just
 * finished may first see the answer it had before.
 */
export function usePayoutAccount({ watch = false }: { watch?: boolean } = {}) {
  return useQuery({
    queryKey: payoutKeys.account,
    queryFn: ({ signal }) => api.get<PayoutAccount>('/my/payout-account', { signal }),
    refetchInterval: (query) =>
      watch && query.state.data?.status === 'onboarding' ? WATCH_EVERY_MS : false,
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
