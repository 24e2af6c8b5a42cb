import { describe, expect, it } from 'vitest';
import { vinCheckDigit, vinProblem } from './vin.ts';

describe('VINs', () => {
  it('accepts North-American VINs whose check digit matches, X included', () => {
    // 49 CFR 565's worked example, and a VIN whose remainder is 10.
    expect(vinProblem('1M8GDM9AXKP042788')).toBeNull();
    expect(vinCheckDigit('1M8GDM9AXKP042788')).toBe('X');
    expect(vinProblem('11111111111111111')).toBeNull();
    expect(vinProblem('1HGCM82633A004352')).toBeNull();
  });

  it('refuses a North-American VIN with a wrong check digit, and says which character', () => {
    expect(vinProblem('1M8GDM9A1KP042788')).toMatch(/check digit \(9th character\)/);
    expect(vinProblem('1HGCM82643A004352')).toMatch(/check digit/);
  });

  it('checks only the shape of VINs from elsewhere, which need no check digit', () => {
    expect(vinProblem('WVWZZZ1JZ3W386752')).toBeNull();
    expect(vinProblem('JT2BG22K1Y0123456')).toBeNull();
  });

  it('names what is wrong with a malformed VIN', () => {
    expect(vinProblem('1M8GDM9AXKP04278')).toMatch(/17 characters/);
    expect(vinProblem('1M8GDM9AXKP04278O')).toMatch(/I, O or Q/);
    expect(vinProblem('1M8GDM9AXKP04278-')).toMatch(/digits and capital letters/);
  });
});
