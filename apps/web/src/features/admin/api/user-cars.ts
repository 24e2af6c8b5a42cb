import type { UserCars } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { adminKeys } from './query-keys';

/** `GET /api/users/:id/listings`: a person and every car of theirs, removed ones too. */
export function useUserCars(id: string) {
  return useQuery({
    queryKey: adminKeys.carsOfUser(id),
    queryFn: ({ signal }) => api.get<UserCars>(`/users/${id}/listings`, { signal }),
  });
}
