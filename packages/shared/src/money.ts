import { z } from 'zod';

/** Money on the wire and in the database: an integer count of minor units (cents). */
export const CentsSchema = z.number().int().nonnegative().max(1_000_000_000_00);

export const CurrencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'Currency must be a three-letter ISO code');

const formatters = new Map<string, Intl.NumberFormat>();

/** Formats minor units for people, e.g. 3355000_00 USD -> "$3,355,000". */
export function formatMoney(cents: number, currency: string, locale = 'en-US'): string {
  const key = `${locale}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      maximumFractionDigits: cents % 100 === 0 ? 0 : 2,
    });
    formatters.set(key, formatter);
  }
  return formatter.format(cents / 100);
}
