import { z } from 'zod';

/** Control characters (NUL among them), line and paragraph separators: never in one line. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const ONE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** In long text, tabs and line breaks are fine; other control characters are not. */
// eslint-disable-next-line no-control-regex -- as above
const LONG_TEXT_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * The one schema for free text people type: Unicode normalised (NFC, so "é" is one character
 * however it was typed), trimmed, without control characters (which no one types, and which
 * PostgreSQL refuses to store: NUL), and between `min` and `max` characters. `multiline` allows
 * line breaks and tabs, for descriptions.
 */
export function textSchema(
  label: string,
  { max, min = 1, multiline = false }: { max: number; min?: number; multiline?: boolean },
) {
  const forbidden = multiline ? LONG_TEXT_FORBIDDEN : ONE_LINE_FORBIDDEN;
  return z
    .string({ message: `${label} is required` })
    .normalize('NFC')
    .trim()
    .refine((value) => !forbidden.test(value), `${label} cannot contain control characters`)
    .min(min, min <= 1 ? `${label} is required` : `${label} must be at least ${min} characters`)
    .max(max, `${label} must be at most ${max} characters`);
}
