import type { DeviceSession } from '@carmarket/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { accountKeys } from './query-keys';

/** `GET /api/auth/list-sessions`: where the person is signed in, this browser first. */
export function listDevices(signal?: AbortSignal): Promise<DeviceSession[]> {
  return api.get<DeviceSession[]>('/auth/list-sessions', signal ? { signal } : {});
}

export function useDevices() {
  return useQuery({
    queryKey: accountKeys.devices(),
    queryFn: ({ signal }) => listDevices(signal),
  });
}

/** `POST /api/auth/revoke-session`: signs one device out at once (its bearer token too). */
export function signOutDevice(id: string): Promise<unknown> {
  return api.post('/auth/revoke-session', { id });
}

/** `POST /api/auth/revoke-other-sessions`: signs out every device but this one. */
export function signOutOtherDevices(): Promise<unknown> {
  return api.post('/auth/revoke-other-sessions', {});
}

export function useSignOutDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutDevice,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.devices() }),
  });
}

export function useSignOutOtherDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOutOtherDevices,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.devices() }),
  });
}
