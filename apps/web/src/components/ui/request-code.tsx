import { ApiError } from '../../lib/api-client';

/**
 * The request id of a failed answer (its `X-Request-Id`), for a person to quote to support: the
 * server's log has one line per request under that id. Shown where the failure is ours (a 5xx),
 * or anywhere on a page's error screen (`always`); a refusal the person can act on (a wrong
 * password, a taken name) says what to do instead. Nothing when the error carries none (the
 * server was not reached, or the page's own code failed).
 */
export function RequestCode({ error, always = false }: { error: unknown; always?: boolean }) {
  if (!(error instanceof ApiError) || !error.requestId) return null;
  if (!always && error.status < 500) return null;
  const id = error.requestId;
  return (
    <p className="mt-1 text-xs text-muted">
      If you contact us about it, quote this code: <code className="select-all">{id}</code>
    </p>
  );
}
