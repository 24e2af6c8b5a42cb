import type { MyListing } from '@carmarket/shared';
import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';

import {
  changesOf,
  formValuesOf,
  listingFormResolver,
  type ListingFormOutput,
  type ListingFormValues,
} from './listing-form-schema';

const options = {
  fields: {},
  shouldUseNativeValidation: false,
} as ResolverOptions<ListingFormValues>;

const filled: ListingFormValues = {
  name: 'Toyota Hiace',
  reprice: 24_500,
  orprice: 31_999.5,
  location: 'Tacoma, WA',
  year: 2021,
  mileageKm: 41_000,
  condition: 'Good',
  category: 'Microbus',
  describe: 'One owner.',
  seller: '',
  images: ['/media/a.webp'],
  make: 'Toyota',
  model: 'HiAce',
  bodyType: 'Minibus',
  fuel: 'diesel',
  transmission: 'manual',
  colour: null,
  vin: '',
  placeId: 5812944,
};

describe('the car form', () => {
  it('takes prices in dollars and mileage in miles, and hands on cents and kilometres', async () => {
    const result = await listingFormResolver(filled, undefined, options);
    expect(result.errors).toEqual({});
    expect(result.values).toMatchObject({
      reprice: 2_450_000,
      orprice: 3_199_950,
      mileageKm: 65_983,
    });
  });

  it("says what is missing in the shared schema's words", async () => {
    const empty: ListingFormValues = {
      ...filled,
      name: ' ',
      reprice: Number.NaN,
      condition: '',
      category: '',
      describe: '',
      images: [],
    };
    const { errors } = await listingFormResolver(empty, undefined, options);
    expect(errors.name?.message).toBe('Name is required');
    expect(errors.reprice?.message).toBe('Price is required');
    expect(errors.condition?.message).toBe('Condition is required');
    expect(errors.category?.message).toBe('Category is required');
    expect(errors.describe?.message).toBe('Description is required');
    expect(errors.images?.message).toBe('Image is required');
  });

  it('asks for make, model and mileage, and a model of the make chosen', async () => {
    const missing = await listingFormResolver(
      { ...filled, make: '', model: '', mileageKm: null },
      undefined,
      options,
    );
    expect(missing.errors.make?.message).toBe('Make is required');
    expect(missing.errors.model?.message).toBe('Model is required');
    expect(missing.errors.mileageKm?.message).toBe('Mileage is required');
    const wrong = await listingFormResolver({ ...filled, model: 'Golf' }, undefined, options);
    expect(wrong.errors.model?.message).toBe('Choose a Toyota model from the list, or Other');
    const vin = await listingFormResolver(
      { ...filled, vin: '1M8GDM9A1KP042788' },
      undefined,
      options,
    );
    expect(vin.errors.vin?.message).toMatch(/check digit/);
  });

  it('sends only what changed when a car is edited, photos included only if they changed', () => {
    const car = {
      name: 'Toyota Hiace',
      reprice: 2_450_000,
      orprice: 3_199_950,
      location: 'Tacoma, WA',
      year: 2021,
      mileageKm: 41_000,
      condition: 'Good',
      description: 'One owner.',
      seller: 'Sam',
      make: 'Toyota',
      model: 'HiAce',
      bodyType: 'Minibus',
      fuel: 'diesel',
      transmission: 'manual',
      colour: null,
      vin: null,
      placeId: 5812944,
      images: [{ url: '/media/a.webp', thumbUrl: '/media/a-t.webp', width: 8, height: 6 }],
    } as unknown as MyListing;
    const values: ListingFormOutput = {
      ...filled,
      reprice: 2_400_000,
      orprice: 3_199_950,
      condition: 'Good',
      category: 'Microbus',
      seller: 'Sam',
      vin: null,
    };
    expect(changesOf(car, values)).toEqual({ reprice: 2_400_000 });
    // The form shows 41,002 km as 25,477 miles, which it sends back unchanged as 41,001 km.
    const driven = { ...car, mileageKm: 41_002 };
    expect(formValuesOf(driven).mileageKm).toBe(25_477);
    expect(changesOf(driven, { ...values, mileageKm: 41_001 })).toEqual({ reprice: 2_400_000 });
    expect(changesOf(driven, { ...values, mileageKm: 41_200 })).toEqual({
      reprice: 2_400_000,
      mileageKm: 41_200,
    });
    expect(changesOf(car, { ...values, images: ['/media/b.webp'] })).toEqual({
      reprice: 2_400_000,
      images: ['/media/b.webp'],
    });
  });
});
