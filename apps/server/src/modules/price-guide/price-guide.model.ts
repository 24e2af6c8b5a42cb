import type { DealRating } from '@carmarket/shared';

/*
 * The price guide's model (decision 032): within a group of comparable cars, ln(price) is a
 * straight line in the car's age (years) and mileage (per 10,000 km), fitted by least squares.
 * The database sums what the fit needs per group in one pass; the normal equations are solved
 * here. Pure: no database, so the rules are tested on their own.
 */

/** A group needs this many comparable cars (on sale, or sold in the last 12 months) for a fit. */
export const MIN_COMPARABLES = 10;
/**
 * The band is the fair price times exp(-/+ BAND_SDS residual standard deviations): one, so about
 * two comparable cars in three are priced within it.
 */
export const BAND_SDS = 1;
/**
 * A group's residual standard deviation is taken as at least this (log price), so the typical
 * range is at least about 7 % either side of the fair price: in a group of near identically
 * priced cars a small discount is then `good`, not `great`.
 */
export const MIN_RESIDUAL_SD = 0.07;
/** The steepest fall in log price a fit may keep per year of age and per 10,000 km. */
export const MAX_FALL_PER_UNIT = 0.5;
/** Mileage is counted in units of this many km. */
export const MILEAGE_UNIT_KM = 10_000;

/**
 * The rating follows the typical range the car page draws, so the two never disagree: a car
 * asking less than the range's low is `great`, more than its high `overpriced`; within it, the
 * range is split in log price into thirds, `good`, `fair` and `high`. Each entry is a rating
 * within the range and its highest position there, from -1 (the low) to 1 (the high). A car 25 %
 * under or over its fair price lies outside the range unless its group's prices spread by more
 * than about 25 %; with the benchmark's spread of 8 % it does with room for the guide's error.
 */
export const RANGE_THIRDS: ReadonlyArray<readonly [DealRating, number]> = [
  ['good', -1 / 3],
  ['fair', 1 / 3],
  ['high', 1],
];

/**
 * One group's sums, as the database adds them up: x1 is age in years, x2 mileage in units of
 * 10,000 km, y ln(price in minor units).
 */
export interface GroupSums {
  n: number;
  s1: number;
  s2: number;
  sy: number;
  s11: number;
  s22: number;
  s12: number;
  s1y: number;
  s2y: number;
  syy: number;
}

export interface Fit {
  intercept: number;
  /** Change in ln(price) per year of age (never above 0). */
  ageSlope: number;
  /** Change in ln(price) per 10,000 km (never above 0). */
  mileageSlope: number;
  meanMileageKm: number;
  residualSd: number;
}

/** Below this variance (per car) a regressor is taken as constant and left out. */
const FLAT = 1e-9;

/**
 * The least-squares line through a group's cars, from their sums. Of the four models (age and
 * mileage, either alone, neither) it keeps the one with the smallest residual whose slopes are
 * sane: not rising with age or mileage, nor falling faster than MAX_FALL_PER_UNIT. A regressor
 * that does not vary in the group (every car the same year) is left out. That is least squares
 * under those bounds on the slopes' signs, solved exactly.
 */
export function solveFit(sums: GroupSums): Fit {
  const { n } = sums;
  const m1 = sums.s1 / n;
  const m2 = sums.s2 / n;
  const my = sums.sy / n;
  // Centred sums of squares and products.
  const c11 = sums.s11 - n * m1 * m1;
  const c22 = sums.s22 - n * m2 * m2;
  const c12 = sums.s12 - n * m1 * m2;
  const c1y = sums.s1y - n * m1 * my;
  const c2y = sums.s2y - n * m2 * my;
  const cyy = Math.max(0, sums.syy - n * my * my);
  const ageVaries = c11 > FLAT * n;
  const mileageVaries = c22 > FLAT * n;

  const candidates: Array<{ b1: number; b2: number; sse: number; p: number }> = [
    { b1: 0, b2: 0, sse: cyy, p: 0 },
  ];
  if (ageVaries) {
    const b1 = c1y / c11;
    candidates.push({ b1, b2: 0, sse: cyy - b1 * c1y, p: 1 });
  }
  if (mileageVaries) {
    const b2 = c2y / c22;
    candidates.push({ b1: 0, b2, sse: cyy - b2 * c2y, p: 1 });
  }
  const det = c11 * c22 - c12 * c12;
  if (ageVaries && mileageVaries && det > FLAT * n * n) {
    const b1 = (c1y * c22 - c2y * c12) / det;
    const b2 = (c2y * c11 - c1y * c12) / det;
    candidates.push({ b1, b2, sse: cyy - b1 * c1y - b2 * c2y, p: 2 });
  }
  const sane = (slope: number) => slope <= 0 && slope >= -MAX_FALL_PER_UNIT;
  let best = candidates[0]!;
  for (const candidate of candidates) {
    if (sane(candidate.b1) && sane(candidate.b2) && candidate.sse < best.sse) best = candidate;
  }
  const freedom = Math.max(1, n - best.p - 1);
  return {
    intercept: my - best.b1 * m1 - best.b2 * m2,
    ageSlope: best.b1,
    mileageSlope: best.b2,
    meanMileageKm: m2 * MILEAGE_UNIT_KM,
    residualSd: Math.max(MIN_RESIDUAL_SD, Math.sqrt(Math.max(0, best.sse) / freedom)),
  };
}
