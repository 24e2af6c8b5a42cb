import { describe, expect, it } from 'vitest';
import {
  decodeKeysetCursor,
  decodeSequenceCursor,
  encodeKeysetCursor,
  encodeSequenceCursor,
  keysetPage,
  pageOf,
  type SortKeyType,
} from './cursor.ts';

// Cursors the server gave before the codec was shared: clients hold them, so they still read.
const ID = '0b5c7f7e-1d2a-4e2b-9a51-3c1f2d4e5f60';
const SEARCH_CURSOR =
  'WyJuZXdlc3QiLCIyMDI2LTAzLTAxIDEwOjAwOjAwLjEyMzQ1NiswMCIsIjBiNWM3ZjdlLTFkMmEtNGUyYi05YTUxLTNjMWYyZDRlNWY2MCJd';
const SELLER_CURSOR =
  'WyJzZWxsZXItbmV3ZXN0IiwiMjAyNi0wMy0wMSAxMDowMDowMCswMCIsIjBiNWM3ZjdlLTFkMmEtNGUyYi05YTUxLTNjMWYyZDRlNWY2MCJd';

describe('cursors', () => {
  it('writes keyset cursors byte for byte as before, and reads them back', () => {
    const search = { sort: 'newest', key: '2026-03-01 10:00:00.123456+00', id: ID };
    expect(encodeKeysetCursor(search)).toBe(SEARCH_CURSOR);
    expect(decodeKeysetCursor(SEARCH_CURSOR, 'newest', 'timestamptz')).toEqual(search);
    const seller = { sort: 'seller-newest', key: '2026-03-01 10:00:00+00', id: ID };
    expect(encodeKeysetCursor(seller)).toBe(SELLER_CURSOR);
    expect(decodeKeysetCursor(SELLER_CURSOR, 'seller-newest', 'timestamptz')).toEqual(seller);
  });

  it('writes conversation and message cursors byte for byte as before', () => {
    expect(encodeSequenceCursor('c', 42)).toBe('Yy40Mg');
    expect(decodeSequenceCursor('c', 'Yy40Mg')).toBe(42);
    expect(encodeSequenceCursor('m', 123456789012345)).toBe('bS4xMjM0NTY3ODkwMTIzNDU');
    expect(decodeSequenceCursor('m', 'bS4xMjM0NTY3ODkwMTIzNDU')).toBe(123456789012345);
  });

  it('refuses a cursor of another kind or sort, and anything it did not give', () => {
    const refused = (read: () => unknown) => expect(read).toThrow(/cursor/);
    refused(() => decodeSequenceCursor('m', 'Yy40Mg'));
    refused(() => decodeSequenceCursor('c', SEARCH_CURSOR));
    refused(() => decodeKeysetCursor('Yy40Mg', 'newest', 'timestamptz'));
    refused(() => decodeKeysetCursor(SEARCH_CURSOR, 'seller-newest', 'timestamptz'));
    refused(() =>
      decodeKeysetCursor(
        encodeKeysetCursor({ sort: 'newest', key: 'x', id: 'y' }),
        'newest',
        'text',
      ),
    );
    for (const text of ['nonsense', 'a/b', '', encodeSequenceCursor('c', -1)]) {
      refused(() => decodeSequenceCursor('c', text));
      refused(() => decodeKeysetCursor(text, 'newest', 'text'));
    }
  });

  it('reads a key only as a value of its sort, as the database prints it', () => {
    const fits = (type: SortKeyType, key: string) =>
      decodeKeysetCursor(encodeKeysetCursor({ sort: 's', key, id: ID }), 's', type).key;
    const refused = (type: SortKeyType, key: string) =>
      expect(() => fits(type, key), `${type} ${key}`).toThrow(/cursor/);
    for (const key of [
      '2026-03-01 10:00:00+00',
      '2024-02-29 23:59:59.999999-05',
      '2026-03-01 10:00:00+05:30',
    ]) {
      expect(fits('timestamptz', key)).toBe(key);
    }
    for (const key of [
      'yesterday',
      '2026-02-29 10:00:00+00',
      '2026-03-01 24:00:00+00',
      '2026-03-01 10:00:00+99',
      '2026-03-01T10:00:00Z',
    ]) {
      refused('timestamptz', key);
    }
    expect(fits('bigint', '-9223372036854775808')).toBe('-9223372036854775808');
    for (const key of ['9223372036854775808', '12abc', '1.5', '']) refused('bigint', key);
    expect(fits('integer', '2147483647')).toBe('2147483647');
    refused('integer', '2147483648');
    for (const key of ['0', '0.25', '-1.5e-05', '3.0000000000000004'])
      expect(fits('float8', key)).toBe(key);
    for (const key of ['Infinity', 'NaN', '1e999', '1e-400', '0x10', ' 1']) refused('float8', key);
    expect(fits('real', '0.0607927')).toBe('0.0607927');
    for (const key of ['1e39', '1e-45']) refused('real', key);
  });

  it('gives a next cursor only when the extra row says more follow', () => {
    const rows = [1, 2, 3].map((n) => ({ sortKey: String(n), id: ID }));
    expect(pageOf(rows, 3, () => 'next')).toEqual({ rows, nextCursor: null });
    expect(pageOf(rows, 2, (last) => last.sortKey).nextCursor).toBe('2');
    const page = keysetPage(rows, 2, 'newest');
    expect(decodeKeysetCursor(page.nextCursor!, 'newest', 'bigint')).toEqual({
      sort: 'newest',
      key: '2',
      id: ID,
    });
  });
});
