import { z } from 'zod';

/** Control characters (NUL among them), line and paragraph separators: never in one line. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const ONE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
/** In long text, tabs and line breaks are fine; other control characters are not. */
// eslint-disable-next-line no-control-regex -- as above
const LONG_TEXT_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/**
 * Bidirectional embeddings, overrides and isolates: removed, as they make text read otherwise
 * than it is written (`\u202egnp.exe` shows as `exe.png`).
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/** Whether `value` holds a control character, as no link, token or line of text does. */
export function hasControlCharacter(value: string): boolean {
  return ONE_LINE_FORBIDDEN.test(value);
}

const withoutBidiControls = (value: string) => value.replace(BIDI_CONTROLS, '');

/**
 * The one schema for free text people type: Unicode normalised (NFC, so "é" is one character
 * however it was typed), without bidirectional controls, trimmed, without control characters
 * (which no one types, and which PostgreSQL refuses to store: NUL), and between `min` and `max`
 * characters. `multiline` allows line breaks and tabs, for descriptions.
 */
export function textSchema(
  label: string,
  { max, min = 1, multiline = false }: { max: number; min?: number; multiline?: boolean },
) {
  const forbidden = multiline ? LONG_TEXT_FORBIDDEN : ONE_LINE_FORBIDDEN;
  return z
    .string({ message: `${label} is required` })
    .normalize('NFC')
    .overwrite(withoutBidiControls)
    .trim()
    .refine((value) => !forbidden.test(value), `${label} cannot contain control characters`)
    .min(min, min <= 1 ? `${label} is required` : `${label} must be at least ${min} characters`)
    .max(max, `${label} must be at most ${max} characters`);
}

/**
 * A token from a link we mailed (a password reset, an unsubscribe): printable characters only;
 * what else it must be, the code that checks it decides.
 */
export function tokenSchema({ min = 1, max }: { min?: number; max: number }) {
  return z
    .string({ message: 'This link is not complete' })
    .min(min, 'This link is not complete')
    .max(max, 'This link is not one of ours')
    .refine((value) => !hasControlCharacter(value), 'This link is not one of ours');
}
