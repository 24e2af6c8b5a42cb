import { z } from 'zod';
import { BODY_TYPES, FUELS, TRANSMISSIONS } from '../vehicles.ts';
import { vinProblem } from '../vin.ts';

/**
 * A VIN as typed: trimmed and upper-cased, then refused with the listing form's words when it is
 * not 17 valid characters or (North-American VINs) its check digit is wrong.
 */
export const VinSchema = z
  .string({ message: 'VIN is required' })
  .transform((vin) => vin.trim().toUpperCase())
  .superRefine((vin, ctx) => {
    const problem = vinProblem(vin);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** `GET /api/vin/:vin`. */
export const VinParamsSchema = z.object({ vin: VinSchema });

/** Make and model on our catalogue (`MAKES`), "Other" where it has no match. */
export const VinCatalogueSchema = z.object({ make: z.string(), model: z.string() });

/**
 * What a VIN decodes as, from the NHTSA's vPIC data (decision 033). `make`, `model`, `trim` and
 * `manufacturer` are vPIC's words; `bodyType`, `fuel` and `transmission` are ours where vPIC's
 * have one, and left out otherwise; `catalogue` is the make and model the add-car form takes.
 */
export const VinDecodeSchema = z.object({
  vin: z.string(),
  make: z.string(),
  model: z.string().optional(),
  year: z.number().int().optional(),
  bodyType: z.enum(BODY_TYPES).optional(),
  fuel: z.enum(FUELS).optional(),
  transmission: z.enum(TRANSMISSIONS).optional(),
  trim: z.string().optional(),
  manufacturer: z.string().optional(),
  catalogue: VinCatalogueSchema,
});
export type VinDecode = z.infer<typeof VinDecodeSchema>;

/**
 * What a car page says its VIN decodes as (`vinDecoded`), with the catalogue's make and model to
 * compare with the seller's.
 */
export const VinDecodedSchema = VinDecodeSchema.pick({
  make: true,
  model: true,
  year: true,
  trim: true,
  catalogue: true,
});
export type VinDecoded = z.infer<typeof VinDecodedSchema>;
