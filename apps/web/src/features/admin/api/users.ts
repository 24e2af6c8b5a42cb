import { ADMIN_PAGE_SIZE, type AdminUser } from '@carmarket/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { API_BASE, ApiError, api, apiHooks } from '../../../lib/api-client';

export type UserRoleFilter = 'Seller' | 'Buyer' | undefined;

export interface UsersQuery {
  role: UserRoleFilter;
  q: string;
  page: number;
}

export interface UsersPage {
  users: AdminUser[];
  total: number;
  pageCount: number;
}

export const usersQueryKey = ['admin', 'users'] as const;

/**
 * `GET /api/all/user`: one page of users, newest first. Fetched directly rather than with the
 * API client, which does not expose headers: the total is in `X-Total-Count`.
 */
export async function getUsers({ role, q, page }: UsersQuery, signal?: AbortSignal) {
  const params = new URLSearchParams({ page: String(page), pageSize: String(ADMIN_PAGE_SIZE) });
  if (role) params.set('role', role);
  if (q) params.set('q', q);
  const headers = { accept: 'application/json', ...apiHooks.headers?.() };
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/all/user?${params}`, {
      credentials: 'include',
      headers,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(
      'network-request-failed',
      'We could not reach the server. Check your connection and try again.',
      0,
    );
  }
  const body = (await response.json().catch(() => null)) as unknown;
  if (!response.ok) {
    const answer = (body as { error?: { code?: string; message?: string } } | null)?.error;
    const error = new ApiError(
      answer?.code ?? 'internal',
      answer?.message ?? 'Something went wrong. Please try again.',
      response.status,
    );
    // As the API client does, e.g. a closed account or an ended session signs out.
    apiHooks.onError?.(error);
    throw error;
  }
  const users = body as AdminUser[];
  const total = Number(response.headers.get('x-total-count') ?? users.length);
  return { users, total, pageCount: Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE)) };
}

export function useUsers(query: UsersQuery) {
  return useQuery({
    queryKey: [...usersQueryKey, query],
    queryFn: ({ signal }) => getUsers(query, signal),
    // The table stays while the next page or search loads, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

/** After a change, every page of every list may differ; the dashboard figures too. */
function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: usersQueryKey }),
      queryClient.invalidateQueries({ queryKey: ['stats'] }),
    ]);
}

/** `PUT /api/user/verify/:id`: marks a seller verified. */
export function useVerifyUser() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: string) =>
      api.put<{ acknowledged: true; modifiedCount: number }>(`/user/verify/${id}`),
    // The badge shows at once, without waiting for the list to load again.
    onSuccess: (_answer, id) =>
      queryClient.setQueriesData<UsersPage>({ queryKey: usersQueryKey }, (page) =>
        page
          ? {
              ...page,
              users: page.users.map((user) =>
                user._id === id ? { ...user, verify: 'true' as const } : user,
              ),
            }
          : page,
      ),
    onSettled: invalidate,
  });
}

/** `DELETE /api/user/remove/:id`: closes an account (never an admin's or one's own). */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: string) =>
      api.delete<{ acknowledged: true; deletedCount: number }>(`/user/remove/${id}`),
    // The row goes at once; the lists load again to fill the page.
    onSuccess: (_answer, id) =>
      queryClient.setQueriesData<UsersPage>({ queryKey: usersQueryKey }, (page) =>
        page?.users.some((user) => user._id === id)
          ? {
              ...page,
              users: page.users.filter((user) => user._id !== id),
              total: page.total - 1,
            }
          : page,
      ),
    onSettled: invalidate,
  });
}
