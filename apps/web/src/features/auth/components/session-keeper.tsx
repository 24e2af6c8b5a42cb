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
  const { user, session } = useSession();
  const email = user?.email;
  // A new session (a changed password ends the old one) needs a token of its own at once.
  const sessionId = session?.session.id;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const goTo = useEffectEvent((path: string) => void navigate(path));

  useEffect(() => {
    if (!email || !sessionId) return;
    return keepSession(email, queryClient, (path) => goTo(path));
  }, [email, sessionId, queryClient]);

  return null;
}
