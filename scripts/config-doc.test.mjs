import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE, DOC_FILE, configDoc, differences, readVariables } from './config-doc.mjs';

describe('docs/configuration.md', () => {
  it('is what `npm run config-doc` writes from config.ts', () => {
    const expected = configDoc(fs.readFileSync(CONFIG_FILE, 'utf8'));
    const actual = fs.readFileSync(DOC_FILE, 'utf8');
    expect(
      differences(actual, expected),
      'docs/configuration.md is out of date: run `npm run config-doc`',
    ).toEqual([]);
    expect(actual).toBe(expected);
  });

  it('refuses a variable without a comment, naming it', () => {
    const source = `const EnvSchema = z.object({
      /** Documented. */
      PORT: z.coerce.number().default(3000),
      HOST: z.string().default('0.0.0.0'),
    });`;
    expect(() => readVariables(source, 'config.ts')).toThrow(/: HOST$/);
  });

  it('reads defaults as written and sets test-only variables apart', () => {
    const source = `const flag = z.enum(['true', 'false']);
    const EnvSchema = z.object({
      /** The port. */
      PORT: z.coerce.number().int().default(15_000),
      /** Cores | one. */
      WORKERS: z.coerce.number().default(Math.max(1, cores - 1)),
      /** A flag. */
      ON: flag.default(false),
      /** An address.
       * @testOnly
       */
      API_URL: z.url().optional(),
    });`;
    expect(readVariables(source, 'config.ts')).toEqual([
      { name: 'PORT', default: '`15000`', meaning: 'The port.', testOnly: false },
      {
        name: 'WORKERS',
        default: 'computed: `Math.max(1, cores - 1)`',
        meaning: 'Cores | one.',
        testOnly: false,
      },
      {
        name: 'ON',
        default: '`false`',
        meaning: 'A flag. Values: `true`, `false`.',
        testOnly: false,
      },
      { name: 'API_URL', default: 'none', meaning: 'An address.', testOnly: true },
    ]);
    expect(configDoc(source, 'config.ts')).toContain('| `WORKERS` | computed');
    expect(configDoc(source, 'config.ts')).toContain('Cores \\| one.');
  });
});
