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
 * A group's residual standard deviation is taken as at least this (log price): a group of
 * identically priced cars would otherwise draw a band of no width.
 */
export const MIN_RESIDUAL_SD = 0.03;
/** The steepest fall in log price a fit may keep per year of age and per 10,000 km. */
export const MAX_FALL_PER_UNIT = 0.5;
/** Mileage is counted in units of this many km. */
export const MILEAGE_UNIT_KM = 10_000;

/**
 * Each rating's highest ratio of asking price to fair price, best first; above the last, a car
 * is `overpriced`. A car 25 % under its fair price (ratio 0.75) is `great` and one 25 % over
 * (1.25) `overpriced` with room for the guide's own error of about 10 % either way; with
 * comparable cars' prices spread by about 8 %, roughly 5 % of them fall in each outer rating.
 */
export const DEAL_THRESHOLDS: ReadonlyArray<readonly [DealRating, number]> = [
  ['great', 0.87],
  ['good', 0.95],
  ['fair', 1.05],
  ['high', 1.15],
];

/** The rating of a car whose asking price is `ratio` times its fair price. */
export function ratingOf(ratio: number): DealRating {
  for (const [rating, upTo] of DEAL_THRESHOLDS) if (ratio <= upTo) return rating;
  return 'overpriced';
}

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

/** A guide from a fit: the fair price and its band, in minor units. */
export function guideFrom(fit: Fit, age: number, mileageKm: number | null | undefined) {
  const lnFair =
    fit.intercept +
    fit.ageSlope * age +
    (fit.mileageSlope * (mileageKm ?? fit.meanMileageKm)) / MILEAGE_UNIT_KM;
  const spread = BAND_SDS * fit.residualSd;
  return {
    fair: Math.round(Math.exp(lnFair)),
    low: Math.round(Math.exp(lnFair - spread)),
    high: Math.round(Math.exp(lnFair + spread)),
  };
}
