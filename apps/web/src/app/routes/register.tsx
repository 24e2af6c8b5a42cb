import { Link, useLocation } from 'react-router';

import { AuthCard } from '../../features/auth/components/auth-card';
import { GoogleButton } from '../../features/auth/components/google-button';
import { RegisterForm } from '../../features/auth/components/register-form';
import { loginPath, safeNextPath } from '../../features/auth/login-path';
import { usePage } from '../../lib/page';

export default function RegisterRoute() {
  usePage({
    title: 'Create an account',
    description: 'Create a CarMarket account to sell your car or to book one.',
  });
  // Where to go once the account exists: only a path on this site.
  const next = safeNextPath(new URLSearchParams(useLocation().search).get('next'));
  return (
    <AuthCard
      title="Create your account"
      intro="Sell your car, or book one and pay by card."
      footer={
        <>
          Already have an account?{' '}
          <Link to={loginPath(next)} className="text-link">
            Sign in
          </Link>
        </>
      }
    >
      <RegisterForm next={next} />
      <GoogleButton next={next} note="A new account made with Google is a Buyer account." />
    </AuthCard>
  );
}
