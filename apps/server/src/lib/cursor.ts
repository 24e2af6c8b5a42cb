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

/** A keyset cursor given for `sort`; one of another sort order is refused by name. */
export function decodeKeysetCursor(text: string, sort: string): KeysetCursor {
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
