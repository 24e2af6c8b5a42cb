/**
 * Lengths are stored and sent in kilometres (mileageKm, radiusKm, distanceKm); people read and
 * type them in the unit that goes with the money beside them: miles with US dollars and pounds
 * sterling, kilometres with any other currency (docs/decisions/013-units-and-one-card.md).
 */
export type LengthUnit = 'mi' | 'km';

export const KM_PER_MILE = 1.609344;

const MILE_CURRENCIES = new Set(['USD', 'GBP']);

export function lengthUnitOf(currency: string): LengthUnit {
  return MILE_CURRENCIES.has(currency.toUpperCase()) ? 'mi' : 'km';
}

/** Whole units of `unit` in `km` kilometres. */
export function fromKm(km: number, unit: LengthUnit): number {
  return Math.round(unit === 'mi' ? km / KM_PER_MILE : km);
}

/** Whole kilometres in `value` of `unit`; `fromKm` gives a whole `value` back unchanged. */
export function toKm(value: number, unit: LengthUnit): number {
  return Math.round(unit === 'mi' ? value * KM_PER_MILE : value);
}

const whole = new Intl.NumberFormat('en-US');

/** "23,861 mi" or "38,400 km", for `km` kilometres. */
export function formatLength(km: number, unit: LengthUnit): string {
  return `${whole.format(fromKm(km, unit))} ${unit}`;
}

/** A car's mileage as its card and page show it; a plain word when the seller left it out. */
export function formatMileage(mileageKm: number | null, currency: string): string {
  return mileageKm === null ? 'Not given' : formatLength(mileageKm, lengthUnitOf(currency));
}

/** "12 mi away", "Under 1 km away": how far a car is from the place searched near. */
export function formatDistance(km: number, unit: LengthUnit): string {
  return km < (unit === 'mi' ? KM_PER_MILE : 1)
    ? `Under 1 ${unit} away`
    : `${formatLength(km, unit)} away`;
}
