import { describe, expect, it } from 'vitest';
import { inferMakeModel, isKnownMake, isKnownModel, OTHER } from './vehicles.ts';

describe('the car list', () => {
  it('reads make and model from the start of a name, the longest model first', () => {
    expect(inferMakeModel('Land Rover Range Rover Sport HSE')).toEqual({
      make: 'Land Rover',
      model: 'Range Rover Sport',
    });
    expect(inferMakeModel('citroen  berlingo XL')).toEqual({ make: 'Citroën', model: 'Berlingo' });
    expect(inferMakeModel('BMW 740Li')).toEqual({ make: 'BMW', model: OTHER });
    expect(inferMakeModel('A lovely van')).toEqual({ make: OTHER, model: OTHER });
  });

  it('knows which models belong to which make, and always allows Other', () => {
    expect(isKnownMake('Toyota')).toBe(true);
    expect(isKnownMake('toString')).toBe(false);
    expect(isKnownModel('Toyota', 'Corolla')).toBe(true);
    expect(isKnownModel('Toyota', 'Golf')).toBe(false);
    expect(isKnownModel('Toyota', OTHER)).toBe(true);
    expect(isKnownModel(OTHER, 'Anything')).toBe(false);
  });
});
