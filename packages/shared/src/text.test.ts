import { describe, expect, it } from 'vitest';

import { hasControlCharacter, textSchema, tokenSchema } from './text';

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

  it('removes bidirectional controls, so text reads as it is written', () => {
    const bidi = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ];
    for (const control of bidi) {
      expect(name.parse(`a${control}b`), JSON.stringify(control)).toBe('ab');
      expect(describe_.parse(`line\n${control}two`)).toBe('line\ntwo');
    }
    expect(name.parse('\u202egnp.exe')).toBe('gnp.exe');
    // Removed before trimming and counting: nothing else left is nothing at all.
    expect(name.parse(' \u202e Zoe')).toBe('Zoe');
    expect(name.safeParse('\u202e\u2066').error?.issues[0]?.message).toBe('Name is required');
    expect(name.parse(`${'x'.repeat(10)}\u202e`)).toBe('x'.repeat(10));
    // Right-to-left text itself, and the marks that are not controls, stay.
    expect(name.parse('שלום \u200f')).toBe('שלום \u200f'.trim());
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

describe('tokenSchema', () => {
  const token = tokenSchema({ max: 20 });

  it('refuses control characters in a link token, and bounds it', () => {
    for (const bad of ['a\u0000b', 'a\u001fb', 'a\u007fb', 'a\nb', '', 'x'.repeat(21)]) {
      expect(token.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(token.parse('abc-DEF_123.x')).toBe('abc-DEF_123.x');
    expect(hasControlCharacter('abc')).toBe(false);
    expect(hasControlCharacter('a\u0000')).toBe(true);
  });
});
