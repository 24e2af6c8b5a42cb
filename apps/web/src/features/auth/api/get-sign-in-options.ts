import type { SignInOptions } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';

/** Under auth's key: what the server offers is no one's data, so signing out keeps it. */
export const signInOptionsQueryKey = ['auth', 'sign-in-options'] as const;

/** The call's path (after `/api`), for the pages the server renders for visitors signed out. */
export const signInOptionsPath = '/sign-in-options';

/**
 * `GET /api/sign-in-options`: the ways of signing in the server offers besides a password,
 * whether booking and listing wait for a confirmed address (REQUIRE_VERIFIED_EMAIL), and whether
 * visitors may browse cars without an account (BROWSE_SIGNED_OUT).
 */
export function getSignInOptions(signal?: AbortSignal): Promise<SignInOptions> {
  return api.get<SignInOptions>(signInOptionsPath, signal ? { signal } : {});
}

export function useSignInOptions({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: signInOptionsQueryKey,
    queryFn: ({ signal }) => getSignInOptions(signal),
    staleTime: Infinity,
    enabled,
  });
}
