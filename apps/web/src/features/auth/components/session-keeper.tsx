import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent } from 'react';
import { useNavigate } from 'react-router';

import { keepSession } from '../session-keeper';
import { useSession } from '../use-session';

/**
 * Rendered (lazily) by the layout while someone is signed in: keeps their bearer token and signs
 * them out when the server says their account was disabled or their session ended. Renders
 * nothing.
 */
export default function SessionKeeper() {
  const email = useSession().user?.email;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const goTo = useEffectEvent((path: string) => void navigate(path));

  useEffect(() => {
    if (!email) return;
    return keepSession(email, queryClient, (path) => goTo(path));
  }, [email, queryClient]);

  return null;
}
