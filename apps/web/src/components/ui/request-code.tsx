import { ApiError } from '../../lib/api-client';

/**
 * The request id of a failed answer (its `X-Request-Id`), for a person to quote to support: the
 * server's log has one line per request under that id. Nothing when the error carries none (the
 * server was not reached, or the page's own code failed).
 */
export function RequestCode({ error }: { error: unknown }) {
  const id = error instanceof ApiError ? error.requestId : undefined;
  if (!id) return null;
  return (
    <p className="mt-1 text-xs text-muted">
      If you contact us about it, quote this code: <code className="select-all">{id}</code>
    </p>
  );
}
