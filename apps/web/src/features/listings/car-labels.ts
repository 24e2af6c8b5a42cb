/*
 * Words for the car data's values. Written out rather than taken from @carmarket/shared's
 * FUEL_LABELS: a value from that package brings zod into the page that imports it.
 */
const FUELS: Record<string, string> = {
  petrol: 'Petrol',
  diesel: 'Diesel',
  hybrid: 'Hybrid',
  'plug-in hybrid': 'Plug-in hybrid',
  electric: 'Electric',
  other: 'Other fuel',
};

export const fuelLabel = (fuel: string) => FUELS[fuel] ?? fuel;
export const transmissionLabel = (transmission: string) =>
  transmission === 'manual' ? 'Manual' : 'Automatic';
