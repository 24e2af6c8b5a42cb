// No zod here: the web app's price tags import this, and zod would come with it (~24 KB).

/**
 * How much of an amount to show: `exact` shows cents only when there are some ("$15,000",
 * "$123.45"); `whole` rounds to whole units ("$15,000", for the search filters' bounds);
 * `compact` is for a chart's axis ("$1.5K").
 */
export type MoneyPrecision = 'exact' | 'whole' | 'compact';

export interface MoneyOptions {
  /** 'en-US' unless given. */
  locale?: string;
  /** `exact` unless given. */
  precision?: MoneyPrecision;
}

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(
  locale: string,
  currency: string,
  kind: 'cents' | 'no-cents' | 'whole' | 'compact',
): Intl.NumberFormat {
  const key = `${locale}|${currency}|${kind}`;
  let format = formatters.get(key);
  if (!format) {
    const options: Intl.NumberFormatOptions =
      kind === 'compact'
        ? // The minimum too: Node's ICU writes "$25.0K" where Chromium's writes "$25K", and a
          // page rendered on the server must draw the same text as the browser (decision 036).
          { notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }
        : kind === 'whole'
          ? { maximumFractionDigits: 0 }
          : {
              minimumFractionDigits: kind === 'cents' ? 2 : 0,
              maximumFractionDigits: kind === 'cents' ? 2 : 0,
            };
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, ...options });
    formatters.set(key, format);
  }
  return format;
}

/**
 * Formats minor units for people: whole amounts without cents, others with both digits, e.g.
 * 3355000_00 USD -> "$3,355,000" and 12345 USD -> "$123.45". The choice is made for each amount;
 * the formatters are cached per locale, currency and choice. The one money formatter of both
 * apps: `precision` covers the filters' whole amounts and the chart's compact axis.
 */
export function formatMoney(
  cents: number,
  currency: string,
  { locale = 'en-US', precision = 'exact' }: MoneyOptions = {},
): string {
  const kind = precision === 'exact' ? (cents % 100 === 0 ? 'no-cents' : 'cents') : precision;
  return formatter(locale, currency, kind).format(cents / 100);
}
