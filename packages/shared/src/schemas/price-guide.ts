import { z } from 'zod';
import { BODY_TYPES, isKnownMake, isKnownModel, OTHER } from '../vehicles.ts';
import { maxModelYear, MIN_MODEL_YEAR } from './listing.ts';

/**
 * `GET /api/price-guide`: what a seller's car is worth, from the make, model, model year and
 * mileage typed so far (decision 032). `bodyType` lets a model with few cars fall back to cars
 * of its make and body type, then of its body type.
 */
export const PriceGuideQuerySchema = z
  .object({
    make: z
      .string({ message: 'Make is required' })
      .refine(isKnownMake, `Choose a make from the list, or ${OTHER}`),
    model: z.string({ message: 'Model is required' }).trim().min(1, 'Model is required').max(60),
    year: z.coerce
      .number({ message: 'Model year must be a number' })
      .int('Model year must be a whole number')
      .min(MIN_MODEL_YEAR, `Model year must be ${MIN_MODEL_YEAR} or later`)
      .refine((year) => year <= maxModelYear(), 'Model year cannot be in the future'),
    mileageKm: z.coerce
      .number({ message: 'Mileage must be a number' })
      .int('Mileage must be a whole number')
      .min(0, 'Mileage cannot be negative')
      .max(2_000_000, 'Mileage is too high')
      .optional(),
    bodyType: z.enum(BODY_TYPES, { message: 'Choose a body type from the list' }).optional(),
  })
  .refine((query) => isKnownModel(query.make, query.model), {
    path: ['model'],
    message: 'Choose a model of that make from the list, or Other',
  });
export type PriceGuideQuery = z.infer<typeof PriceGuideQuerySchema>;
