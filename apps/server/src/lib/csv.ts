/**
 * CSV as RFC 4180 writes it, for spreadsheets: a cell holding a comma, a quote or a line break is
 * quoted (its quotes doubled), and lines end in CRLF. A text cell that a spreadsheet would read
 * as a formula (starting with = + - @, or a tab or carriage return that some strip first) gets a
 * leading apostrophe (OWASP's "CSV injection"): an export of what people typed must never run
 * in the administrator's spreadsheet. Numbers and booleans are written as they are.
 */
export type CsvValue = string | number | boolean | Date | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
