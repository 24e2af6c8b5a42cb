import { useSession } from '../../auth';

/**
 * Why nothing about these is mailed while the address is not confirmed (the server mails alerts
 * and saved-car news only to confirmed addresses, and keeps nothing for later). The button that
 * mails the link again is the dashboard's reminder above it (one button, one mail). Nothing once
 * the address is confirmed.
 */
export function UnconfirmedMailNotice({ what }: { what: string }) {
  const { user } = useSession();
  if (!user || user.emailVerified) return null;
  return (
    <aside
      aria-labelledby="unconfirmed-mail-title"
      className="mt-6 rounded-box border border-warning bg-warning/10 p-4"
    >
      <h2 id="unconfirmed-mail-title" className="font-semibold">
        We are not emailing you yet
      </h2>
      <p className="mt-1 text-sm leading-6">
        We only email confirmed addresses, and <strong className="break-all">{user.email}</strong>{' '}
        is not confirmed yet, so we are not sending you {what}. Open the link we mailed to that
        address (or have it sent again from the reminder above) to start them; anything from before
        then is not sent later.
      </p>
    </aside>
  );
}
