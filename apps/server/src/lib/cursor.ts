import { AppError } from './errors.ts';

/*
 * The one cursor codec. A cursor is opaque to clients: base64url text, checked on the way in.
 * Clients hold cursors between requests, so the two formats given out never change:
 *   keyset    JSON `[sort, key, id]`: the sort order, the last row's sort key (as the database
 *             printed it, so no precision is lost) and its id (search, a seller's cars);
 *   sequence  `<kind>.<seq>`: a kind letter and the last row's sequence number (`c` for
 *             conversations, `m` for messages).
 */

const badCursor = () =>
  new AppError(400, 'validation-failed', 'This cursor is not one this server gave', {
    field: 'cursor',
  });

const toBase64 = (plain: string) => Buffer.from(plain).toString('base64url');

/** The plain text of a cursor, read by `parse`; anything `parse` refuses (or throws on) is a 400. */
function fromBase64<T>(text: string, parse: (plain: string) => T | undefined): T {
  let parsed: T | undefined;
  try {
    parsed = parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (parsed === undefined) throw badCursor();
  return parsed;
}

export interface KeysetCursor {
  sort: string;
  key: string;
  id: string;
}

export function encodeKeysetCursor(cursor: KeysetCursor): string {
  return toBase64(JSON.stringify([cursor.sort, cursor.key, cursor.id]));
}

/**
 * The SQL type a sort key is cast back to. A key is checked against the form the database prints
 * that type in, so a crafted one is refused as a cursor rather than failing its cast; `text` keys
 * (a compound key its caller reads) are only limited in length.
 */
export type SortKeyType = 'timestamptz' | 'bigint' | 'integer' | 'float8' | 'real' | 'text';

const INTEGER_RANGES = {
  bigint: 9_223_372_036_854_775_807n,
  integer: 2_147_483_647n,
} as const;
/** Finite magnitudes each float type holds (below the least, PostgreSQL refuses the text). */
const FLOAT_RANGES = { float8: [1e-307, 1.7e308], real: [1.2e-38, 3.4e38] } as const;
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?$/;

/** Whether `key` is a `timestamptz` as PostgreSQL prints it, naming a real day and time. */
function isTimestampKey(key: string): boolean {
  const parts = TIMESTAMP.exec(key);
  if (!parts) return false;
  const [year, month, day, hour, minute, second, zoneHour] = parts.slice(1, 8).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const zoneMinute = Number(parts[8] ?? 0);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1000 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    zoneHour <= 15 &&
    zoneMinute <= 59
  );
}

/** Whether `key` is a value of `type` as the database prints it. */
export function isSortKey(type: SortKeyType, key: string): boolean {
  switch (type) {
    case 'timestamptz':
      return isTimestampKey(key);
    case 'bigint':
    case 'integer': {
      if (!/^-?\d{1,19}$/.test(key)) return false;
      const value = BigInt(key);
      return value <= INTEGER_RANGES[type] && value >= -INTEGER_RANGES[type] - 1n;
    }
    case 'float8':
    case 'real': {
      if (!/^-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d{1,3})?$/i.test(key)) return false;
      const magnitude = Math.abs(Number(key));
      const [least, most] = FLOAT_RANGES[type];
      return magnitude === 0
        ? !/[1-9]/.test(key.split(/e/i)[0]!)
        : magnitude >= least && magnitude <= most;
    }
    case 'text':
      return true;
  }
}

/**
 * A keyset cursor given for `sort`, whose key is a value of `keyType` (or one `keyType` accepts);
 * one of another sort order is refused by name.
 */
export function decodeKeysetCursor(
  text: string,
  sort: string,
  keyType: SortKeyType | ((key: string) => boolean),
): KeysetCursor {
  const [cursorSort, key, id] = fromBase64(text, (plain) => {
    const parsed: unknown = JSON.parse(plain);
    const valid =
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      parsed.every((part) => typeof part === 'string') &&
      /^[0-9a-f-]{36}$/.test(parsed[2] as string) &&
      (parsed[1] as string).length <= 100;
    return valid ? (parsed as [string, string, string]) : undefined;
  });
  if (cursorSort !== sort) {
    throw new AppError(400, 'validation-failed', 'This cursor belongs to another sort order', {
      field: 'cursor',
    });
  }
  const keyFits = typeof keyType === 'function' ? keyType(key) : isSortKey(keyType, key);
  if (!keyFits) throw badCursor();
  return { sort, key, id };
}

export const encodeSequenceCursor = (kind: string, seq: number) => toBase64(`${kind}.${seq}`);

/** The sequence number of a cursor of this kind; another kind's cursor is not one we gave. */
export function decodeSequenceCursor(kind: string, text: string): number {
  return fromBase64(text, (plain) => {
    const match = /^([a-z])\.(\d{1,15})$/.exec(plain);
    return match && match[1] === kind ? Number(match[2]) : undefined;
  });
}

/**
 * A page read with one row more than it shows (`limit + 1`): the rows to show, and the cursor
 * after the last of them (`cursorOf`) when the extra row says more follow.
 */
export function pageOf<T>(
  rows: T[],
  limit: number,
  cursorOf: (last: T) => string,
): { rows: T[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { rows: shown, nextCursor: rows.length > limit && last ? cursorOf(last) : null };
}

/** `pageOf` for keyset cursors: rows carry their sort key as the database printed it. */
export const keysetPage = <T extends { sortKey: string; id: string }>(
  rows: T[],
  limit: number,
  sort: string,
) => pageOf(rows, limit, (last) => encodeKeysetCursor({ sort, key: last.sortKey, id: last.id }));
