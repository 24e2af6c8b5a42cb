import type { MoneySummary } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { statsKeys } from './query-keys';

/** `GET /api/admin/money`: the marketplace's money in all (admins). */
export function useMoneySummary() {
  return useQuery({
    queryKey: statsKeys.money,
    queryFn: ({ signal }) => api.get<MoneySummary>('/admin/money', { signal }),
  });
}
