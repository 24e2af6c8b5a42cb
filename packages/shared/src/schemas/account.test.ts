import { describe, expect, it } from 'vitest';

import { NameSchema } from './account.ts';

describe('NameSchema', () => {
  it('refuses a name that carries a web address or a domain', () => {
    for (const name of [
      'http://x',
      'evil.example',
      'www.foo.com',
      'buy at foo.ru',
      'EVIL.EXAMPLE',
      'mail me@foo.com',
      'see 203.0.113.7',
      'пример.рф',
      'evil\u3002example',
      'ftp://files',
    ]) {
      const result = NameSchema.safeParse(name);
      expect(result.success, name).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/cannot contain a web address/);
    }
  });

  it('takes names as people write them, dots followed by a space included', () => {
    for (const name of [
      'J. R. Smith',
      'J.R. Smith',
      'St. John',
      'Dr. Ada Lovelace Jr.',
      "Mary-Jane O'Neil",
      'José Ñúñez',
      'Test Person 12',
    ]) {
      expect(NameSchema.safeParse(name).success, name).toBe(true);
    }
  });
});
