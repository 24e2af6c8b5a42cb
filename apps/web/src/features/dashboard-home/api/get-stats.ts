import type { Role, Stats } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { statsKeys } from './query-keys';

/** After `/api`. */
export const statsPath = '/stats';

/**
 * `GET /api/stats`: the dashboard home's figures for the signed-in person's roles. The roles are
 * in the key: choosing a first role or adding one loads the figures that role has at once.
 */
export function useStats(roles: readonly Role[]) {
  return useQuery({
    queryKey: statsKeys.forRoles(roles),
    queryFn: ({ signal }) => api.get<Stats>(statsPath, { signal }),
  });
}
