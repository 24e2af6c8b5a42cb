/**
 * Vehicle identification numbers (ISO 3779): 17 characters, digits and capital letters without
 * I, O and Q. North-American VINs (first character 1-5) carry a check digit in position 9
 * (49 CFR 565); others may use that position freely, so only the shape is checked for them.
 */

const TRANSLITERATION: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];

function valueOf(char: string): number {
  return /[0-9]/.test(char) ? Number(char) : TRANSLITERATION[char]!;
}

/** The check digit position 9 must hold ('0'-'9' or 'X'). The VIN must already be well formed. */
export function vinCheckDigit(vin: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += valueOf(vin[i]!) * WEIGHTS[i]!;
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

/** Why a VIN is refused, or null when it is accepted. Expects it upper-cased and trimmed. */
export function vinProblem(vin: string): string | null {
  if (vin.length !== 17) return 'A VIN has 17 characters';
  if (/[IOQ]/.test(vin)) return 'A VIN never contains the letters I, O or Q';
  if (!/^[A-HJ-NPR-Z0-9]{17}$/.test(vin)) return 'A VIN holds only digits and capital letters';
  if (/^[1-5]/.test(vin) && vin[8] !== vinCheckDigit(vin)) {
    return 'This VIN’s check digit (9th character) does not match: check it for a typo';
  }
  return null;
}
