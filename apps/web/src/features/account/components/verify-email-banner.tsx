import { Link } from 'react-router';

import { useSession } from '../../auth';
import { SendLinkAgain } from './send-link-again';

/**
 * Until the person opens the link mailed at sign-up: a reminder with "Send the link again" (and
 * where to change a mistyped address). Nothing once the address is confirmed.
 */
export function VerifyEmailBanner() {
  const { user } = useSession();
  if (!user || user.emailVerified) return null;
  return (
    <aside
      aria-labelledby="verify-email-title"
      className="mb-6 rounded-box border border-warning bg-warning/10 p-4"
    >
      <h2 id="verify-email-title" className="font-semibold">
        Please confirm your email address
      </h2>
      <p className="mt-1 text-sm leading-6">
        We mailed a link to <strong className="break-all">{user.email}</strong>. Open it to confirm
        the address is yours. Wrong address?{' '}
        <Link to="/dashboard/settings#email" className="text-link font-semibold">
          Change it in My account
        </Link>
        .
      </p>
      <SendLinkAgain email={user.email} className="mt-3" />
    </aside>
  );
}
