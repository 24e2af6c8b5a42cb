import { describe, expect, it } from 'vitest';

import { loginPath, registerPath, safeNextPath } from './login-path';

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

  it('keeps the page to return to on the way to registering', () => {
    expect(registerPath('/blog/how-to-buy')).toBe('/register?next=/blog/how-to-buy');
    expect(registerPath(null)).toBe('/register');
  });

  it('refuses to send people to another site after signing in', () => {
    for (const next of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/foo\\..\\\\evil.example',
      'evil',
    ]) {
      expect(safeNextPath(next)).toBeNull();
    }
    expect(safeNextPath('/blog')).toBe('/blog');
    expect(safeNextPath('/cars?q=bmw x5')).toBe('/cars?q=bmw x5');
  });

  it('passes on the way back of an account page rather than returning to it', () => {
    expect(safeNextPath('/register?next=/blog/how-to-buy')).toBe('/blog/how-to-buy');
    expect(safeNextPath('/login?next=%2Flisting%2F1')).toBe('/listing/1');
    expect(safeNextPath('/login')).toBeNull();
    expect(safeNextPath('/register?next=//evil.example')).toBeNull();
    expect(safeNextPath('/registered-cars')).toBe('/registered-cars');
  });
});
