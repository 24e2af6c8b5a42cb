import type { ReactNode } from 'react';

import { PageLoading } from '../../../components/ui/page-loading';
import { useSignInOptions } from '../api/get-sign-in-options';
import { useSession } from '../use-session';
import { RequireAuth } from './require-auth';

/**
 * The search, category and car pages: shown to signed-in people, and to everyone where the site
 * lets people browse without an account (BROWSE_SIGNED_OUT, which the sign-in options say,
 * decision 028); everyone else is sent to sign in and back again, as RequireAuth does.
 */
export function RequireBrowsing({ children }: { children: ReactNode }) {
  const { isPending, isSignedIn } = useSession();
  // Asked of visitors signed out only; a page the server rendered for them holds the answer.
  const options = useSignInOptions({ enabled: !isPending && !isSignedIn });
  if (!isPending && !isSignedIn) {
    if (options.isPending) return <PageLoading label="Checking your session" />;
    if (options.data?.browseSignedOut) return children;
  }
  return <RequireAuth>{children}</RequireAuth>;
}
