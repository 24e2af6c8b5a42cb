import { describe, expect, it } from 'vitest';
import {
  decodeKeysetCursor,
  decodeSequenceCursor,
  encodeKeysetCursor,
  encodeSequenceCursor,
  keysetPage,
  pageOf,
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
    expect(decodeKeysetCursor(SEARCH_CURSOR, 'newest')).toEqual(search);
    const seller = { sort: 'seller-newest', key: '2026-03-01 10:00:00+00', id: ID };
    expect(encodeKeysetCursor(seller)).toBe(SELLER_CURSOR);
    expect(decodeKeysetCursor(SELLER_CURSOR, 'seller-newest')).toEqual(seller);
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
    refused(() => decodeKeysetCursor('Yy40Mg', 'newest'));
    refused(() => decodeKeysetCursor(SEARCH_CURSOR, 'seller-newest'));
    refused(() =>
      decodeKeysetCursor(encodeKeysetCursor({ sort: 'newest', key: 'x', id: 'y' }), 'newest'),
    );
    for (const text of ['nonsense', 'a/b', '', encodeSequenceCursor('c', -1)]) {
      refused(() => decodeSequenceCursor('c', text));
      refused(() => decodeKeysetCursor(text, 'newest'));
    }
  });

  it('gives a next cursor only when the extra row says more follow', () => {
    const rows = [1, 2, 3].map((n) => ({ sortKey: String(n), id: ID }));
    expect(pageOf(rows, 3, () => 'next')).toEqual({ rows, nextCursor: null });
    expect(pageOf(rows, 2, (last) => last.sortKey).nextCursor).toBe('2');
    const page = keysetPage(rows, 2, 'newest');
    expect(decodeKeysetCursor(page.nextCursor!, 'newest')).toEqual({
      sort: 'newest',
      key: '2',
      id: ID,
    });
  });
});
