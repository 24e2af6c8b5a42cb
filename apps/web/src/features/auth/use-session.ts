import type { Role } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';

import { api } from '../../lib/api-client';

/** The parts of better-auth's session answer that the web app reads. */
export interface Session {
  user: {
    id: string;
    name: string;
    email: string;
    /**
     * Every role the account holds, the one chosen at sign-up first; empty until the person has
     * chosen Seller or Buyer (e.g. their sign-up was interrupted). A Buyer may add Seller.
     */
    roles: Role[];
    /** A seller checked by an admin. */
    verified?: boolean;
    /** The person opened the link mailed to their address. */
    emailVerified: boolean;
    /** Their profile photo's address, if they chose one. */
    image?: string | null;
    /** Pre-fills the booking form. */
    phone?: string | null;
  };
  session: {
    id: string;
    expiresAt: string;
  };
}

/**
 * Auth's keys start with `auth`. Everything cached under other keys belongs to the person signed
 * in and goes when they sign out (api/end-session.ts).
 */
export const sessionQueryKey = ['auth', 'session'] as const;

/** better-auth's session call (after `/api`). */
export const sessionPath = '/auth/get-session';

export function isSession(value: unknown): value is Session {
  const answer = value as Partial<Session> | null;
  return !!answer?.user && !!answer.session;
}

/** better-auth answers `null` when signed out; any failure also counts as signed out. */
export async function getSession(signal?: AbortSignal): Promise<Session | null> {
  try {
    const data = await api.get<unknown>(sessionPath, signal ? { signal } : {});
    return isSession(data) ? data : null;
  } catch (error) {
    if (signal?.aborted) throw error;
    return null;
  }
}

export function useSession() {
  const query = useQuery({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => getSession(signal),
    staleTime: 60_000,
    retry: false,
  });
  const session = query.data ?? null;
  return {
    session,
    user: session?.user ?? null,
    /** True until the first answer; pages should neither redirect nor show account links yet. */
    isPending: query.isPending,
    isSignedIn: session !== null,
  };
}
