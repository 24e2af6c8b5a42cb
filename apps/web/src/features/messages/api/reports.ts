import type { ConversationReport } from '@carmarket/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { messageKeys } from './query-keys';

/** `GET /api/reports` (admins): reported conversations, open ones first. */
export function useReports() {
  return useQuery({
    queryKey: messageKeys.reports,
    queryFn: ({ signal }) => api.get<ConversationReport[]>('/reports', { signal }),
  });
}

/** `POST /api/reports/:id/resolve` (admins): the report was dealt with. */
export function resolveReport(id: string) {
  return api.post<{ acknowledged: true; modifiedCount?: number }>(
    `/reports/${encodeURIComponent(id)}/resolve`,
  );
}

export function useResolveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveReport,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.reports }),
  });
}
