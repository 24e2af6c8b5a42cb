import { errorMessage } from '../../lib/api-client';
import { RequestCode } from './request-code';

/** A failed load, with what failed, the reason and a button to try again. */
export function LoadError({
  what,
  error,
  retrying,
  onRetry,
}: {
  /** Completes "We could not load …". */
  what: string;
  error: unknown;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-box border border-error bg-error-soft p-5 sm:flex-row sm:items-center"
    >
      <div className="flex-1">
        <p className="font-semibold">We could not load {what}.</p>
        <p className="mt-1 text-sm text-muted">{errorMessage(error)}</p>
        <RequestCode error={error} />
      </div>
      <button type="button" className="button button-outline" onClick={onRetry} disabled={retrying}>
        {retrying ? 'Trying again…' : 'Try again'}
      </button>
    </div>
  );
}
