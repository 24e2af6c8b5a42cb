import { Link, Navigate, useLocation } from 'react-router';

import { AuthCard } from '../../features/auth/components/auth-card';
import { GoogleButton } from '../../features/auth/components/google-button';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { safeNextPath } from '../../features/auth/login-path';
import { useSession } from '../../features/auth/use-session';
import { usePage } from '../../lib/page';

export default function LoginRoute() {
  usePage({
    title: 'Sign in',
    description: 'Sign in to book cars, sell yours and see your orders.',
  });
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  // Where to go after signing in: only a path on this site.
  const next = safeNextPath(params.get('next'));
  // better-auth sends people back here with ?error= when a Google sign-in did not finish.
  const googleFailed = params.has('error');
  const { isSignedIn } = useSession();

  if (isSignedIn) return <Navigate to={next ?? '/'} replace />;
  return (
    <AuthCard
      title="Sign in to CarMarket"
      intro="Book cars, sell yours and follow your orders."
      footer={
        <>
          New to CarMarket?{' '}
          <Link to="/register" className="text-link">
            Create an account
          </Link>
        </>
      }
    >
      {googleFailed && (
        <p role="alert" className="alert alert-error alert-soft mb-5">
          Your Google sign-in did not finish. Please try again, or sign in with your email.
        </p>
      )}
      <SignInForm next={next} />
      <p className="divider-text my-6">or</p>
      <GoogleButton />
    </AuthCard>
  );
}
