import { formatMoney } from '@carmarket/shared';

/**
 * A guide's figure in whole hundreds ("$33,100"): an estimate from similar cars, not a price to
 * the cent, which would claim a precision the guide does not have.
 */
export function guideMoney(cents: number, currency: string): string {
  return formatMoney(Math.round(cents / 10_000) * 10_000, currency);
}
