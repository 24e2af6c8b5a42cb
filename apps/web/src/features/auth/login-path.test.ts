import { describe, expect, it } from 'vitest';

import { loginPath, safeNextPath } from './login-path';

describe('login path', () => {
  it('keeps the page to return to, with readable slashes', () => {
    expect(loginPath('/category/7cb2b147-4649-4868-901c-6fda31884648')).toBe(
      '/login?next=/category/7cb2b147-4649-4868-901c-6fda31884648',
    );
    expect(loginPath('/dashboard?tab=orders')).toBe('/login?next=/dashboard%3Ftab%3Dorders');
  });

  it('leaves out a return to the home page', () => {
    expect(loginPath('/')).toBe('/login');
    expect(loginPath()).toBe('/login');
  });

  it('refuses to send people to another site after signing in', () => {
    for (const next of ['https://evil.example', '//evil.example', '/\\evil.example', 'evil']) {
      expect(safeNextPath(next)).toBeNull();
    }
    expect(safeNextPath('/blog')).toBe('/blog');
  });
});
