import { screen } from '@testing-library/react';
import { BrowserRouter } from 'react-router';
import { describe, expect, it } from 'vitest';

import { renderWithApp } from '../../testing/render';
import { serverAnswers } from '../../testing/server-answers';
import { SiteHeader } from './site-header';

/*
 * The header's search on a phone, from the keyboard (moved from search-form.spec.ts): the button
 * opens the field with the focus in it, Escape closes it back on the button, and a field opened on
 * a search page starts from that search. That it shows only on phones stays in the browser.
 */

function renderHeader(address = '/') {
  serverAnswers({ 'GET /api/auth/get-session': { status: 200, body: null } });
  window.history.replaceState(null, '', address);
  const rendered = renderWithApp(
    <BrowserRouter>
      <SiteHeader />
    </BrowserRouter>,
  );
  const open = screen.getByRole('button', { name: 'Search cars' });
  const field = screen.getByRole('searchbox', { name: 'Search cars' });
  return { ...rendered, open, field };
}

describe('the header’s search on a phone', () => {
  it('the search button opens the field with the focus in it; Escape closes it, back on its button', async () => {
    const { user, open, field } = renderHeader();
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(open).toHaveAttribute('aria-controls', 'header-search');
    open.focus();
    await user.keyboard('{Enter}');
    expect(open).toHaveAttribute('aria-expanded', 'true');
    expect(field).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(open).toHaveFocus();
    // Enter opens it again.
    await user.keyboard('{Enter}');
    expect(field).toHaveFocus();
  });

  it('a search typed and sent opens /cars?q= and closes the field', async () => {
    const { user, open, field } = renderHeader();
    await user.click(open);
    await user.keyboard('corolla{Enter}');
    expect(window.location.pathname + window.location.search).toBe('/cars?q=corolla');
    expect(open).toHaveAttribute('aria-expanded', 'false');
    expect(field).toHaveValue('corolla');
  });

  it('opened on a search page, the field starts from that search', async () => {
    const { user, open, field } = renderHeader('/cars?q=civic');
    await user.click(open);
    expect(field).toHaveFocus();
    expect(field).toHaveValue('civic');
  });
});
