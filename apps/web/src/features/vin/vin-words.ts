import type { VinDecoded } from '@carmarket/shared';

/**
 * What a VIN decodes as, in words: "2003 Honda Accord EX-V6", for Fill from VIN's hint and the car
 * page's line. A file of its own, with a type-only import: the car page imports it without Fill
 * from VIN and zod.
 */
export function vinWords(decoded: Pick<VinDecoded, 'year' | 'make' | 'model' | 'trim'>): string {
  return [decoded.year, decoded.make, decoded.model, decoded.trim].filter(Boolean).join(' ');
}
