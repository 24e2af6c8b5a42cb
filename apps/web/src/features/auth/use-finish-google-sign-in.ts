import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';

import { errorMessage } from '../../lib/api-client';
import { toast } from '../../lib/toast';
import { registerGoogleUser } from './api/google';
import { safeNextPath } from './login-path';
import { useSession } from './use-session';
import { sessionQueryKey } from './use-session';

// One at a time, also when React runs the effect twice in development.
let finishing = false;

/**
 * On the page Google sends people back to (`/dashboard?google=1&next=...`): records the account
 * once (a first Google sign-in becomes a Buyer), refreshes the session and goes on to `next` (a
 * same-site path) or the dashboard.
 */
export function useFinishGoogleSignIn(): void {
  const params = new URLSearchParams(useLocation().search);
  const returned = params.get('google') === '1';
  const next = safeNextPath(params.get('next')) ?? '/dashboard';
  const { email, name } = useSession().user ?? {};
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    if (!returned || !email || finishing) return;
    finishing = true;
    const shortName = name?.trim().slice(0, 80);
    registerGoogleUser(shortName ? { name: shortName, email } : { email })
      .then(() => queryClient.invalidateQueries({ queryKey: sessionQueryKey }))
      .then(
        () => toast.success('You are signed in with Google.'),
        (error: unknown) =>
          toast.error(`Your Google sign-in did not finish. ${errorMessage(error)}`),
      )
      .finally(() => {
        finishing = false;
        void navigate(next, { replace: true });
      });
  }, [returned, next, email, name, queryClient, navigate]);
}
