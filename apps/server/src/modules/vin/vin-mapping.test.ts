import { describe, expect, it } from 'vitest';
import { catalogueOf, presentDecode } from './vin-mapping.ts';

/* vPIC's words on ours (decision 033): no decoder needed, the decoder process's answers by hand. */

describe('vPIC on our catalogue', () => {
  it('matches makes and models whatever their case and punctuation', () => {
    expect(catalogueOf('MERCEDES-BENZ', ['GLC'])).toEqual({ make: 'Mercedes-Benz', model: 'GLC' });
    expect(catalogueOf('LAND ROVER', ['Range Rover Sport'])).toEqual({
      make: 'Land Rover',
      model: 'Range Rover Sport',
    });
    expect(catalogueOf('Ford', ['F-150'])).toEqual({ make: 'Ford', model: 'F-150' });
  });

  it('takes the series when the model is not ours, and Other when neither is', () => {
    expect(catalogueOf('BMW', ['328i', '3-series'])).toEqual({ make: 'BMW', model: '3 Series' });
    expect(catalogueOf('Honda', ['Element'])).toEqual({ make: 'Honda', model: 'Other' });
    expect(catalogueOf('Scion', ['tC'])).toEqual({ make: 'Other', model: 'Other' });
  });

  it('maps body, fuel and gearbox onto ours, and leaves out what has no match', () => {
    const decoded = presentDecode('5YJ3E1EA2KF317000', {
      vehicle: {
        make: 'Tesla',
        model: 'Model 3',
        year: 2019,
        bodyStyle: 'Wagon',
        fuelType: 'Electric',
        transmission: 'Automatic',
      },
      errors: [],
    });
    expect(decoded).toMatchObject({
      bodyType: 'Estate',
      fuel: 'electric',
      transmission: 'automatic',
    });
    const odd = presentDecode('5YJ3E1EA2KF317000', {
      vehicle: { make: 'Tesla', year: 0, bodyStyle: 'Truck', fuelType: 'Cold fusion' },
      errors: [],
    });
    expect(odd).toEqual({
      vin: '5YJ3E1EA2KF317000',
      make: 'Tesla',
      catalogue: { make: 'Tesla', model: 'Other' },
    });
  });

  it('answers null when the maker is unknown or no pattern matched', () => {
    const unknown = { vehicle: null, errors: [{ code: '300', severity: 'error' }] };
    expect(presentDecode('11111111111111111', unknown)).toBeNull();
  });
});
