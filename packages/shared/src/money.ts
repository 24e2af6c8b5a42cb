// No zod here: the web app's price tags import this, and zod would come with it (~24 KB).

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(locale: string, currency: string, fractionDigits: 0 | 2): Intl.NumberFormat {
  const key = `${locale}|${currency}|${fractionDigits}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formatters.set(key, format);
  }
  return format;
}

/**
 * Formats minor units for people: whole amounts without cents, others with both digits, e.g.
 * 3355000_00 USD -> "$3,355,000" and 12345 USD -> "$123.45". The choice is made for each amount;
 * the formatters are cached per locale, currency and choice.
 */
export function formatMoney(cents: number, currency: string, locale = 'en-US'): string {
  return formatter(locale, currency, cents % 100 === 0 ? 0 : 2).format(cents / 100);
}
