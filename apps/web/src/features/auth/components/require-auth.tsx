// Every page behind sign-in is styled by app-pages.css; importing it here loads it with them.
import '../../../app-pages.css';

import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';

import { PageLoading } from '../../../components/ui/page-loading';
import { loginPath } from '../login-path';
import { useSession } from '../use-session';

/** Shows its children to signed-in people; sends everyone else to sign in and back again. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { isPending, isSignedIn } = useSession();
  const location = useLocation();

  if (isPending) return <PageLoading label="Checking your session" />;
  if (!isSignedIn) {
    return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  }
  return children;
}
