/** Helpers of the sandbox card form: formatting as people type, and when the form is complete. */

const MAX_CARD_DIGITS = 19;

function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/** "4242424242424242" -> "4242 4242 4242 4242" (groups of four, at most 19 digits). */
export function formatCardNumber(value: string): string {
  return digitsOf(value)
    .slice(0, MAX_CARD_DIGITS)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Where the caret goes in `formatted` to stay after the same number of digits as before. */
export function caretAfterDigits(formatted: string, digitsBefore: number): number {
  let position = 0;
  let seen = 0;
  while (position < formatted.length && seen < digitsBefore) {
    if (/\d/.test(formatted[position] ?? '')) seen += 1;
    position += 1;
  }
  return position;
}

/** "1234" -> "12/34"; the slash appears once the year is being typed. */
export function formatExpiry(value: string): string {
  const digits = digitsOf(value).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** "MM/YY" -> month and four-digit year; the processor judges whether they are valid. */
export function parseExpiry(value: string): { expMonth: number; expYear: number } | null {
  const digits = digitsOf(value);
  if (digits.length !== 4) return null;
  return { expMonth: Number(digits.slice(0, 2)), expYear: 2000 + Number(digits.slice(2)) };
}

export function formatCvc(value: string): string {
  return digitsOf(value).slice(0, 4);
}

export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}

/** Enough typed to send: the processor checks the number, the date and the code itself. */
export function isCardComplete(card: CardInput): boolean {
  const digits = digitsOf(card.number).length;
  return (
    digits >= 13 &&
    digits <= MAX_CARD_DIGITS &&
    parseExpiry(card.expiry) !== null &&
    /^\d{3,4}$/.test(card.cvc)
  );
}
