import { describe, expect, it } from 'vitest';
import { DEMO_CATEGORIES, SEED_CATEGORIES } from './cars.ts';
import { wideDemoCatalogue } from './catalogue.ts';

const smallSet = SEED_CATEGORIES.flatMap((seed) =>
  seed.cars.map((car) => ({ ...car, category: seed.name })),
);
const everyDemoCar = [...smallSet, ...wideDemoCatalogue()];

describe('the demo data', () => {
  it('puts only electric cars under Electric car, and the hybrids under Hybrid car', () => {
    const fuels = (name: string) =>
      new Set(everyDemoCar.filter((car) => car.category === name).map((car) => car.fuel));
    expect(fuels('Electric car')).toEqual(new Set(['electric']));
    expect(fuels('Hybrid car')).toEqual(new Set(['hybrid', 'plug-in hybrid']));
    const named = new Set([...SEED_CATEGORIES, ...DEMO_CATEGORIES].map((seed) => seed.name));
    for (const car of everyDemoCar) expect(named, car.name).toContain(car.category);
  });

  it('writes no distance in a description: the car page gives its mileage in the site’s unit', () => {
    for (const car of everyDemoCar) {
      expect(car.description, car.name).not.toMatch(/\d\s*(km|kilomet|mi\b|miles)/i);
    }
  });

  it('advertises a few of the cars every demo install has', () => {
    expect(smallSet.filter((car) => car.advertised).length).toBeGreaterThanOrEqual(3);
  });
});
