import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import { useNavigate } from 'react-router';

import { useSession } from './use-session';

/**
 * While someone is signed in: keeps a bearer token and signs them out when the server says their
 * account was disabled or their session ended (session-keeper.ts). That code loads only then, so
 * no public page pays for it.
 */
export function useSessionKeeper(): void {
  const email = useSession().user?.email;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const goTo = useEffectEvent((path: string) => void navigate(path));

  useEffect(() => {
    if (!email) return;
    const keeper = import('./session-keeper').then(
      (module) => module.keepSession(email, queryClient, goTo),
      // Offline: the cookie still signs requests; the next sign-in tries again.
      () => undefined,
    );
    return () => void keeper.then((stop) => stop?.());
  }, [email, queryClient]);
}
