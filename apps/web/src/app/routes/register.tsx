import { Link } from 'react-router';

import { AuthCard } from '../../features/auth/components/auth-card';
import { GoogleButton } from '../../features/auth/components/google-button';
import { RegisterForm } from '../../features/auth/components/register-form';
import { usePage } from '../../lib/page';

export default function RegisterRoute() {
  usePage({
    title: 'Create an account',
    description: 'Create a CarMarket account to sell your car or to book one.',
  });
  return (
    <AuthCard
      title="Create your account"
      intro="Sell your car, or book one and pay by card."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className="text-link">
            Sign in
          </Link>
        </>
      }
    >
      <RegisterForm />
      <p className="divider-text my-6">or</p>
      <GoogleButton note="A new account made with Google is a Buyer account." />
    </AuthCard>
  );
}
