/** Helpers of the sandbox card form: formatting as people type or paste, and what is missing. */

import type { PaymentGaps } from './payment-gaps';

const MIN_CARD_DIGITS = 13;
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

/**
 * The expiry field's text as MM/YY, whatever common form was typed or pasted: "12 / 30",
 * "12/2030", "12-30", "1230", "122030" and " 12/30 " all give "12/30", and "1/30" gives "01/30".
 * Unfinished input stays unfinished ("1", "12/", "12/3", and "12/203" on the way to "12/2030").
 */
export function formatExpiry(value: string): string {
  const text = value.trim();
  const separated = /^(\d{1,2})\s*[/\-.\s]\s*(\d*)/.exec(text);
  let month: string;
  let year: string;
  if (separated) {
    month = (separated[1] ?? '').padStart(2, '0');
    year = separated[2] ?? '';
  } else {
    const digits = digitsOf(text);
    // A first digit of 2 to 9 is a month of its own: "430" is 04/30.
    const monthLength = /^[2-9]/.test(digits) ? 1 : 2;
    month = monthLength === 1 ? `0${digits.slice(0, 1)}` : digits.slice(0, 2);
    year = digits.slice(monthLength);
  }
  // Four-digit years are 20YY; anything else keeps its first two digits.
  year = year.startsWith('20') ? year.slice(0, 4) : year.slice(0, 2);
  if (year.length === 4) year = year.slice(2);
  if (year) return `${month}/${year}`;
  return separated ? `${month}/` : month;
}

/** "MM/YY" -> month and four-digit year; null until the field holds a whole date. */
export function parseExpiry(value: string): { expMonth: number; expYear: number } | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(value);
  if (!match) return null;
  return { expMonth: Number(match[1]), expYear: 2000 + Number(match[2]) };
}

export function formatCvc(value: string): string {
  return digitsOf(value).slice(0, 4);
}

export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
}

/**
 * What the card fields still need before the card can be sent: fields left empty (named to
 * complete "enter …") and problems with what was typed (sentences). The processor judges the
 * rest (whether the number is a real card, the code right).
 */
export function cardGaps(card: CardInput, now = new Date()): PaymentGaps {
  const missing: string[] = [];
  const problems: string[] = [];
  const digits = digitsOf(card.number).length;
  if (digits === 0) missing.push('the card number');
  else if (digits < MIN_CARD_DIGITS) problems.push('The card number is too short.');

  const expiry = parseExpiry(card.expiry);
  if (card.expiry === '') missing.push('the expiry date');
  else if (!expiry) problems.push('Enter the expiry date as MM/YY.');
  else if (expiry.expMonth < 1 || expiry.expMonth > 12) {
    problems.push('The expiry month must be from 01 to 12.');
  } else if (
    // A card is good until the end of its expiry month.
    expiry.expYear * 12 + expiry.expMonth <
    now.getFullYear() * 12 + now.getMonth() + 1
  ) {
    problems.push(`The expiry date ${card.expiry} has passed.`);
  }

  if (card.cvc === '') missing.push('the CVC');
  else if (!/^\d{3,4}$/.test(card.cvc)) problems.push('The CVC has 3 or 4 digits.');
  return { missing, problems };
}
