/**
 * A policy's answer: allowed, or refused with a reason a person can read. Policies live one file
 * per resource (`modules/<resource>/<resource>.policy.ts`); routes and services ask them before
 * anything changes or is shown.
 */
export type Decision = { ok: true } | { ok: false; reason: string };

export const allow: Decision = { ok: true };
export const deny = (reason: string): Decision => ({ ok: false, reason });
export const decide = (allowed: boolean, reason: string): Decision =>
  allowed ? allow : deny(reason);
