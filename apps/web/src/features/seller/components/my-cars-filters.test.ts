import { describe, expect, it } from 'vitest';

import { myCarsViewOf } from './my-cars-filters';

const viewOf = (query: string) => myCarsViewOf(new URLSearchParams(query));

describe('My cars’ view from the address', () => {
  it('reads the tab, the search and the order', () => {
    expect(viewOf('status=sold&q=%20corolla%20&sort=price_asc')).toEqual({
      status: 'sold',
      q: 'corolla',
      sort: 'price_asc',
    });
    expect(viewOf('')).toEqual({ status: null, q: '', sort: 'newest' });
  });

  it('leaves out what it does not know, so an old or edited link still shows the cars', () => {
    expect(viewOf('status=removed&sort=views-ish')).toEqual({
      status: null,
      q: '',
      sort: 'newest',
    });
    expect(viewOf(`q=${'x'.repeat(150)}`).q).toHaveLength(100);
    expect(viewOf('q=a%00b').q).toBe('');
  });
});
