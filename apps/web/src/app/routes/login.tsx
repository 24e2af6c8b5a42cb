import { useRef, useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';

import { AuthCard } from '../../features/auth/components/auth-card';
import { EmailLinkForm } from '../../features/auth/components/email-link-form';
import { GoogleButton } from '../../features/auth/components/google-button';
import { SignInForm } from '../../features/auth/components/sign-in-form';
import { registerPath, safeNextPath } from '../../features/auth/login-path';
import { useSession } from '../../features/auth/use-session';
import { usePage } from '../../lib/page';

/** What signing in will open, when someone was sent here from a page that needs it. */
function reasonFor(next: string | null): string | undefined {
  if (!next) return undefined;
  if (next.startsWith('/listing/')) return 'Sign in to see this car, book it or ask its seller.';
  if (/^\/(cars|category\/)/.test(next)) return 'Sign in to search every car on sale.';
  if (next.startsWith('/dashboard')) return 'Sign in to open your dashboard.';
  return undefined;
}

export default function LoginRoute() {
  usePage({
    title: 'Sign in',
    description: 'Sign in to book cars, sell yours and see your bookings.',
  });
  const { search } = useLocation();
  const params = new URLSearchParams(search);
  // Where to go after signing in: only a path on this site.
  const next = safeNextPath(params.get('next'));
  // A sign-in link that did not work comes back with ?link=failed (and better-auth's ?error=).
  const linkFailed = params.get('link') === 'failed';
  // better-auth sends people back here with ?error= when a Google sign-in did not finish.
  const googleFailed = params.has('error') && !linkFailed;
  const [byLink, setByLink] = useState(linkFailed);
  // What was typed as the address stays when switching between the two ways in.
  const typedEmail = useRef('');
  const { isSignedIn } = useSession();

  if (isSignedIn) return <Navigate to={next ?? '/'} replace />;
  return (
    <AuthCard
      title="Sign in to CarMarket"
      intro={reasonFor(next) ?? 'Book cars, sell yours and follow your bookings.'}
      footer={
        <>
          New to CarMarket?{' '}
          <Link to={registerPath(next)} className="text-link">
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
      {linkFailed && (
        <p role="alert" className="alert alert-error alert-soft mb-5">
          That sign-in link has expired or was used already. Ask for a new one below.
        </p>
      )}
      {byLink ? (
        <EmailLinkForm next={next} email={typedEmail} />
      ) : (
        <SignInForm next={next} email={typedEmail} />
      )}
      <button
        type="button"
        className="text-link mx-auto mt-4 block"
        onClick={() => setByLink((link) => !link)}
      >
        {byLink ? 'Sign in with your password instead' : 'Email me a sign-in link instead'}
      </button>
      <GoogleButton next={next} />
    </AuthCard>
  );
}
