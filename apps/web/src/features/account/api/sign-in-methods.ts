import type { SignInMethod } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { accountKeys } from './query-keys';

/**
 * `GET /api/auth/list-accounts`: how the person signs in (`credential` is a password, `google`
 * Google). Settings ask for a password only of an account that has one.
 */
export function listSignInMethods(signal?: AbortSignal): Promise<SignInMethod[]> {
  return api.get<SignInMethod[]>('/auth/list-accounts', signal ? { signal } : {});
}

export function useSignInMethods() {
  const query = useQuery({
    queryKey: accountKeys.signInMethods(),
    queryFn: ({ signal }) => listSignInMethods(signal),
  });
  // Not known yet: null. Not known at all (the call failed): most accounts have a password, and
  // the server says so if this one has none.
  const hasPassword = query.isError
    ? true
    : (query.data?.some((method) => method.provider === 'credential') ?? null);
  return { ...query, hasPassword };
}
