import { AppError } from '../../lib/errors.ts';

/**
 * Keyset cursors: the sort order, the last row's sort key (as the database printed it, so no
 * precision is lost) and its id, in base64url JSON. Opaque to clients; checked on the way in.
 */
export interface Cursor {
  sort: string;
  key: string;
  id: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.key, cursor.id])).toString('base64url');
}

/**
 * A page read with one row more than it shows (`limit + 1`): the rows to show, and the cursor
 * after the last of them when the extra row says more follow.
 */
export function keysetPage<T extends { sortKey: string; id: string }>(
  rows: T[],
  limit: number,
  sort: string,
): { rows: T[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    rows: shown,
    nextCursor:
      rows.length > limit && last ? encodeCursor({ sort, key: last.sortKey, id: last.id }) : null,
  };
}

const badCursor = () =>
  new AppError(400, 'validation-failed', 'This cursor is not one this server gave', {
    field: 'cursor',
  });

export function decodeCursor(text: string, sort: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    !parsed.every((part) => typeof part === 'string') ||
    !/^[0-9a-f-]{36}$/.test(parsed[2] as string) ||
    (parsed[1] as string).length > 100
  ) {
    throw badCursor();
  }
  const [cursorSort, key, id] = parsed as [string, string, string];
  if (cursorSort !== sort) {
    throw new AppError(400, 'validation-failed', 'This cursor belongs to another sort order', {
      field: 'cursor',
    });
  }
  return { sort, key, id };
}
