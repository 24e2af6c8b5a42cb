import type { Stats } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { statsKeys } from './query-keys';

/** `GET /api/stats`: the dashboard home's figures for the signed-in person's role. */
export function useStats() {
  return useQuery({
    queryKey: statsKeys.all,
    queryFn: ({ signal }) => api.get<Stats>('/stats', { signal }),
  });
}
