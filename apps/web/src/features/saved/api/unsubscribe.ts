import type { UnsubscribeResult } from '@carmarket/shared';
import { useEffect, useRef, useState } from 'react';

import { api } from '../../../lib/api-client';

/** `POST /api/unsubscribe?token=`: the link in an alert mail (no sign-in: the token is signed). */
export function unsubscribe(token: string) {
  return api.post<UnsubscribeResult>(`/unsubscribe?token=${encodeURIComponent(token)}`);
}

/**
 * Sends the token once when the page opens, and gives the answer or the error. Not TanStack's
 * useMutation: used on this public page, it makes the bundler split the query library out of the
 * main bundle into a chunk of its own, which costs the home page ~0.8 KB it does not have.
 */
export function useUnsubscribe(token: string | null) {
  const [outcome, setOutcome] = useState<{ result?: UnsubscribeResult; error?: unknown }>({});
  // One request per visit: StrictMode runs effects twice in development.
  const sentFor = useRef<string | null>(null);
  useEffect(() => {
    if (!token || sentFor.current === token) return;
    sentFor.current = token;
    unsubscribe(token).then(
      (result) => setOutcome({ result }),
      (error: unknown) => setOutcome({ error }),
    );
  }, [token]);
  return outcome;
}
