import { errorMessage } from '../../../lib/api-client';
import { useSendVerificationEmail } from '../api/send-verification-email';

/**
 * "Send the link again" for an address not confirmed yet, with what happened beside it. Used on
 * this page and in the dashboard's banner.
 */
export function SendLinkAgain({ email, className = '' }: { email: string; className?: string }) {
  const send = useSendVerificationEmail();
  return (
    <span className={`inline-flex flex-wrap items-center gap-x-3 gap-y-1 ${className}`}>
      <button
        type="button"
        className="button button-outline button-sm"
        onClick={() => send.mutate(email)}
        disabled={send.isPending}
        aria-busy={send.isPending || undefined}
      >
        {send.isPending ? 'Sending…' : 'Send the link again'}
      </button>
      <span role="status" className={send.isError ? 'text-sm text-error' : 'text-sm'}>
        {send.isSuccess && `Sent. Open the link in the mail to ${email}.`}
        {send.isError && errorMessage(send.error)}
      </span>
    </span>
  );
}
