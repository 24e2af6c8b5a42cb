import { Link } from 'react-router';

import { AuthCard } from '../../features/auth/components/auth-card';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';
import { usePage } from '../../lib/page';

export default function ForgotPasswordRoute() {
  usePage({ title: 'Forgot your password?' });
  return (
    <AuthCard
      title="Forgot your password?"
      intro="Enter the email of your account and we will send you a link to choose a new password."
      footer={
        <>
          Remembered it?{' '}
          <Link to="/login" className="text-link">
            Sign in
          </Link>
        </>
      }
    >
      <ForgotPasswordForm />
    </AuthCard>
  );
}
