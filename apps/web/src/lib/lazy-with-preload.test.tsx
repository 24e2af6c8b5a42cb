import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ComponentType, type lazy } from 'react';
import { describe, expect, it } from 'vitest';

import { lazyWithPreload } from './lazy-with-preload';

/*
 * A lazy page React drew before its code had come must stay the same page once the code is in:
 * its next render (a new address query) must not mount it afresh, which drops what it holds and
 * the focus (my-cars.spec.ts flaked so: after Clear, the whole My cars page was mounted anew and
 * the search box lost focus).
 *
 * React can commit the lazy component itself (it replays only the part that waited for the
 * code); when that happens depends on timing, so here React.lazy is a stand-in that draws the
 * page at once, as a resolved lazy component does.
 */
/** React.lazy as a stand-in that draws the page at once, as a resolved lazy component does. */
const lazyDrawnAtOnce = ((load: () => Promise<{ default: ComponentType }>) => {
  let Loaded: ComponentType | undefined;
  void load().then((module) => (Loaded = module.default));
  return function ResolvedLazy() {
    return Loaded ? <Loaded /> : <Box />;
  };
}) as unknown as typeof lazy;

function Box() {
  return <input aria-label="Search" defaultValue="" />;
}

describe('a page whose code loads lazily', () => {
  it('drawn through React.lazy, is the same page, with its focus, when drawn again', async () => {
    let done: (module: { default: ComponentType }) => void = () => {};
    const Page = lazyWithPreload(() => new Promise((resolve) => (done = resolve)), lazyDrawnAtOnce);
    let redraw: () => void = () => {};
    function Layout() {
      const [count, setCount] = useState(0);
      redraw = () => setCount((value) => value + 1);
      return (
        <>
          <Page />
          <span>{count}</span>
        </>
      );
    }
    render(<Layout />);
    const box = screen.getByRole('textbox', { name: 'Search' });
    await userEvent.type(box, 'kia');
    // The code comes; then the address changes.
    await act(async () => {
      done({ default: Box });
      await Page.preload();
    });
    act(() => redraw());
    expect(screen.getByText('1')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Search' })).toBe(box);
    expect(box).toHaveValue('kia');
    expect(box).toHaveFocus();
  });

  it('drawn after its code came, is the page itself at once', async () => {
    const Page = lazyWithPreload(() => Promise.resolve({ default: Box }));
    await Page.preload();
    render(<Page />);
    expect(screen.getByRole('textbox', { name: 'Search' })).toBeInTheDocument();
  });
});
