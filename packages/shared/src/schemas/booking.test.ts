import { describe, expect, it } from 'vitest';
import { PhoneSchema } from './booking.ts';

describe('phone numbers', () => {
  it.each(['+1 (555) 010-2030', '5550102', '+44 20 7946 0958', '(030) 1234-5678'])(
    'accepts %s',
    (phone) => {
      expect(PhoneSchema.safeParse(phone).success).toBe(true);
    },
  );
  it.each(['123456', '+1 555 01x 2030', 'call me', '1'.repeat(21), '++15550102030', ''])(
    'refuses %s',
    (phone) => {
      expect(PhoneSchema.safeParse(phone).success).toBe(false);
    },
  );
});
