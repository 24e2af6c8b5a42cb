import { AppError } from './errors.ts';

/**
 * A policy's answer, the one shape every rule in `modules/<resource>/<resource>.policy.ts` returns:
 * allowed, or refused with a reason a person can read and the status it answers with: 401 sign
 * in first (`signInFirst`), 403 told why (`deny`), 404 as if the thing did not exist, the reason
 * being the API's not-found wording (`hide`, decision 008), 409 not in the thing's present state
 * (`conflicting`). Routes and services ask a policy before anything changes or is shown, and turn
 * a refusal into the HTTP answer only through `authorize` (route hooks through `guard`, which
 * calls it): one shape, one place that throws.
 */
export type Decision = { ok: true } | { ok: false; reason: string; status: 401 | 403 | 404 | 409 };

export const allow: Decision = { ok: true };
/** Refused until the caller signs in (401): for what a signed-out visitor asked. */
export const signInFirst = (reason: string): Decision => ({ ok: false, reason, status: 401 });
/** Refused, and told why (403). */
export const deny = (reason: string): Decision => ({ ok: false, reason, status: 403 });
/** Refused as if it did not exist (404); `reason` is the not-found wording the API gives. */
export const hide = (reason: string): Decision => ({ ok: false, reason, status: 404 });
/** Refused for the thing's state rather than the person (409). */
export const conflicting = (reason: string): Decision => ({ ok: false, reason, status: 409 });
/** Allowed when `allowed`, else refused with `reason` (403). */
export const decide = (allowed: boolean, reason: string): Decision =>
  allowed ? allow : deny(reason);

const CODE = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not-found',
  409: 'conflict',
} as const;

/**
 * Returns when the policy allowed; else throws its refusal as the API's error, `{error:{code,
 * message}}` with the refusal's status and reason (and `extra`, e.g. the field it is about).
 */
export function authorize(
  decision: Decision,
  extra?: AppError['extra'],
): asserts decision is { ok: true } {
  if (decision.ok) return;
  throw new AppError(decision.status, CODE[decision.status], decision.reason, extra);
}
