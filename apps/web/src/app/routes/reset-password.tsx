import { useLocation } from 'react-router';

import { AuthCard } from '../../features/auth/components/auth-card';
import {
  AskAgainLink,
  ResetPasswordForm,
} from '../../features/auth/components/reset-password-form';
import { usePage } from '../../lib/page';

/**
 * `/reset-password?token=`: the mailed link goes through the server, which sends people here with
 * the token, or with `?error=INVALID_TOKEN` when the link is used up or has expired.
 */
export default function ResetPasswordRoute() {
  usePage({ title: 'Choose a new password' });
  const params = new URLSearchParams(useLocation().search);
  const token = params.get('token');

  if (!token || params.has('error')) {
    return (
      <AuthCard title="This link does not work">
        <p role="alert" className="alert alert-error alert-soft">
          {params.has('error')
            ? 'This password reset link has expired or has already been used.'
            : 'Open this page from the link in the password reset email.'}
        </p>
        <p className="mt-5">
          Links work once, for one hour. <AskAgainLink />.
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" intro="You will sign in with it from now on.">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
