import { describe, expect, it } from 'vitest';

import { textSchema } from './text';

describe('textSchema', () => {
  const name = textSchema('Name', { max: 10 });
  const describe_ = textSchema('Description', { max: 100, multiline: true });

  it('trims and normalises to NFC', () => {
    expect(name.parse('  Zoe\u0301  ')).toBe('Zoé');
    expect(name.parse('Zoé').length).toBe(3);
  });

  it('refuses NUL and other control characters, naming the field', () => {
    for (const bad of [
      'a\u0000b',
      'a\u0007',
      'line\nbreak',
      'tab\there',
      'esc\u001b[0m',
      'x\u2028y',
    ]) {
      const result = name.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Name cannot contain control characters');
    }
  });

  it('lets long text keep its line breaks and tabs, but not NUL', () => {
    expect(describe_.parse('One owner.\r\nWinter tyres\tincluded.')).toBe(
      'One owner.\r\nWinter tyres\tincluded.',
    );
    expect(describe_.safeParse('a\u0000b').success).toBe(false);
  });

  it('bounds the length after trimming', () => {
    expect(name.safeParse('   ').error?.issues[0]?.message).toBe('Name is required');
    expect(name.safeParse('x'.repeat(11)).error?.issues[0]?.message).toBe(
      'Name must be at most 10 characters',
    );
    expect(
      textSchema('Location', { max: 20, min: 2 }).safeParse('x').error?.issues[0]?.message,
    ).toBe('Location must be at least 2 characters');
  });
});
