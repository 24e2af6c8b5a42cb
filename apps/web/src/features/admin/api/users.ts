import { ADMIN_PAGE_SIZE, type AdminUser } from '@carmarket/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { api } from '../../../lib/api-client';
import { adminKeys } from './query-keys';
import { statsKeys } from '../../dashboard-home';

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

/** `GET /api/all/user`: one page of users, newest first; the total is in `X-Total-Count`. */
export async function getUsers({ role, q, page }: UsersQuery, signal?: AbortSignal) {
  const params = new URLSearchParams({ page: String(page), pageSize: String(ADMIN_PAGE_SIZE) });
  if (role) params.set('role', role);
  if (q) params.set('q', q);
  let total: string | null = null;
  const users = await api.get<AdminUser[]>(`/all/user?${params}`, {
    ...(signal ? { signal } : {}),
    onHeaders: (headers) => (total = headers.get('x-total-count')),
  });
  const count = Number(total ?? users.length);
  return { users, total: count, pageCount: Math.max(1, Math.ceil(count / ADMIN_PAGE_SIZE)) };
}

export function useUsers(query: UsersQuery) {
  return useQuery({
    queryKey: adminKeys.usersPage(query),
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
      queryClient.invalidateQueries({ queryKey: adminKeys.users }),
      queryClient.invalidateQueries({ queryKey: statsKeys.all }),
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
      queryClient.setQueriesData<UsersPage>({ queryKey: adminKeys.users }, (page) =>
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
      queryClient.setQueriesData<UsersPage>({ queryKey: adminKeys.users }, (page) =>
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
