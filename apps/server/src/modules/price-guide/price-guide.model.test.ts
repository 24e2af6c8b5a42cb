import { describe, expect, it } from 'vitest';
import { MIN_RESIDUAL_SD, solveFit, type GroupSums } from './price-guide.model.ts';

/** The sums the database adds up, of (age, mileage in 10,000 km, ln price) triples. */
function sumsOf(cars: Array<[number, number, number]>): GroupSums {
  const sums = { n: 0, s1: 0, s2: 0, sy: 0, s11: 0, s22: 0, s12: 0, s1y: 0, s2y: 0, syy: 0 };
  for (const [x1, x2, y] of cars) {
    sums.n += 1;
    sums.s1 += x1;
    sums.s2 += x2;
    sums.sy += y;
    sums.s11 += x1 * x1;
    sums.s22 += x2 * x2;
    sums.s12 += x1 * x2;
    sums.s1y += x1 * y;
    sums.s2y += x2 * y;
    sums.syy += y * y;
  }
  return sums;
}

describe('the price guide model (decision 032)', () => {
  it('finds the line a market was priced by', () => {
    const cars: Array<[number, number, number]> = [];
    for (let age = 0; age < 10; age++) {
      for (let tenK = 1; tenK < 12; tenK += 3) {
        cars.push([age, tenK + age, Math.log(3_000_000) - 0.08 * age - 0.04 * (tenK + age)]);
      }
    }
    const fit = solveFit(sumsOf(cars));
    expect(fit.ageSlope).toBeCloseTo(-0.08, 6);
    expect(fit.mileageSlope).toBeCloseTo(-0.04, 6);
    expect(fit.intercept).toBeCloseTo(Math.log(3_000_000), 6);
    // No scatter at all: the band keeps its least width.
    expect(fit.residualSd).toBe(MIN_RESIDUAL_SD);
  });

  it('leaves out a regressor that does not vary, and one whose slope rises', () => {
    // Every car of one year: the age slope cannot be told, only mileage's.
    const sameYear = solveFit(
      sumsOf([1, 2, 3, 4, 5].map((tenK) => [3, tenK, 14 - 0.05 * tenK + (tenK % 2) * 0.01])),
    );
    expect(sameYear.ageSlope).toBe(0);
    expect(sameYear.mileageSlope).toBeLessThan(0);
    // Older cars dearer (a handful of classics): the fit keeps price flat in age instead.
    const rising = solveFit(sumsOf([0, 1, 2, 3, 4, 5].map((age) => [age, 5, 14 + 0.1 * age])));
    expect(rising.ageSlope).toBe(0);
    expect(rising.mileageSlope).toBe(0);
    expect(rising.intercept).toBeCloseTo(14.25, 6);
  });
});
