import type { AuditEntry } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { adminKeys } from './query-keys';

/** `GET /api/audit`: the latest admin actions, sales and refunds, newest first. */
export function useAuditLog() {
  return useQuery({
    queryKey: adminKeys.audit,
    queryFn: ({ signal }) => api.get<AuditEntry[]>('/audit', { signal }),
  });
}
