/**
 * What a card form still needs before Pay can send it: fields left empty, named to complete
 * "enter …" ("the CVC"), and problems with what was typed, as sentences.
 */
export interface PaymentGaps {
  missing: string[];
  problems: string[];
}

/** "a", "a and b", "a, b and c". */
function listOf(items: string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The name and email the receipt goes to. */
export function billingGaps(billing: { name: string; email: string }): PaymentGaps {
  const missing: string[] = [];
  const problems: string[] = [];
  if (billing.name.trim() === '') missing.push('the name on the card');
  if (billing.email.trim() === '') missing.push('an email for the receipt');
  else if (!/.@./.test(billing.email)) problems.push('The email for the receipt needs an @.');
  return { missing, problems };
}

/** Why Pay cannot send the card yet, in a sentence or two; null when nothing is missing. */
export function payBlocker(...parts: PaymentGaps[]): string | null {
  const missing = parts.flatMap((part) => part.missing);
  const problems = parts.flatMap((part) => part.problems);
  const sentences = [...problems];
  if (missing.length > 0) {
    sentences.push(`To pay, ${problems.length > 0 ? 'also ' : ''}enter ${listOf(missing)}.`);
  }
  return sentences.length > 0 ? sentences.join(' ') : null;
}
