import type { BodyType, Colour, Condition, Fuel, Transmission } from '@carmarket/shared';
import type { DemoCategoryName, SeedCar } from './cars.ts';

/**
 * The wider demo set (SEED_DEMO_CARS=full, the default): 72 cars across many makes, models, years,
 * prices and cities, so search filters and facet counts are worth trying on a fresh install. Drawn
 * from a fixed pseudo-random sequence, so every install gets the same cars.
 */

interface Line {
  make: string;
  model: string;
  bodyType: BodyType;
  fuel: Fuel;
  category: DemoCategoryName;
  /** Price new, whole dollars. */
  newPrice: number;
}

const LINES: Line[] = [
  {
    make: 'Tesla',
    model: 'Model Y',
    bodyType: 'SUV',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 52_000,
  },
  {
    make: 'Tesla',
    model: 'Model S',
    bodyType: 'Sedan',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 89_000,
  },
  {
    make: 'Polestar',
    model: 'Polestar 2',
    bodyType: 'Sedan',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 51_000,
  },
  {
    make: 'BYD',
    model: 'Atto 3',
    bodyType: 'SUV',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 39_000,
  },
  {
    make: 'Renault',
    model: 'Zoe',
    bodyType: 'Hatchback',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 33_000,
  },
  {
    make: 'BMW',
    model: 'i4',
    bodyType: 'Sedan',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 57_000,
  },
  {
    make: 'Audi',
    model: 'Q4 e-tron',
    bodyType: 'SUV',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 55_000,
  },
  {
    make: 'Ford',
    model: 'Mustang Mach-E',
    bodyType: 'SUV',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 48_000,
  },
  {
    make: 'Volkswagen',
    model: 'ID.3',
    bodyType: 'Hatchback',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 38_000,
  },
  {
    make: 'Fiat',
    model: '500e',
    bodyType: 'Hatchback',
    fuel: 'electric',
    category: 'Electric car',
    newPrice: 32_000,
  },
  {
    make: 'Toyota',
    model: 'Corolla',
    bodyType: 'Hatchback',
    fuel: 'hybrid',
    category: 'Hybrid car',
    newPrice: 27_000,
  },
  {
    make: 'Honda',
    model: 'Accord',
    bodyType: 'Sedan',
    fuel: 'hybrid',
    category: 'Hybrid car',
    newPrice: 34_000,
  },
  {
    make: 'Toyota',
    model: 'Prius',
    bodyType: 'Hatchback',
    fuel: 'hybrid',
    category: 'Hybrid car',
    newPrice: 29_000,
  },
  {
    make: 'Mitsubishi',
    model: 'Outlander',
    bodyType: 'SUV',
    fuel: 'plug-in hybrid',
    category: 'Hybrid car',
    newPrice: 41_000,
  },
  {
    make: 'Toyota',
    model: 'Land Cruiser',
    bodyType: 'SUV',
    fuel: 'diesel',
    category: 'Luxury car',
    newPrice: 88_000,
  },
  {
    make: 'BMW',
    model: '5 Series',
    bodyType: 'Sedan',
    fuel: 'petrol',
    category: 'Luxury car',
    newPrice: 62_000,
  },
  {
    make: 'BMW',
    model: 'X5',
    bodyType: 'SUV',
    fuel: 'diesel',
    category: 'Luxury car',
    newPrice: 70_000,
  },
  {
    make: 'Mercedes-Benz',
    model: 'E-Class',
    bodyType: 'Sedan',
    fuel: 'petrol',
    category: 'Luxury car',
    newPrice: 64_000,
  },
  {
    make: 'Mercedes-Benz',
    model: 'GLE',
    bodyType: 'SUV',
    fuel: 'hybrid',
    category: 'Luxury car',
    newPrice: 74_000,
  },
  {
    make: 'Audi',
    model: 'A6',
    bodyType: 'Estate',
    fuel: 'diesel',
    category: 'Luxury car',
    newPrice: 60_000,
  },
  {
    make: 'Audi',
    model: 'Q7',
    bodyType: 'SUV',
    fuel: 'petrol',
    category: 'Luxury car',
    newPrice: 68_000,
  },
  {
    make: 'Volvo',
    model: 'XC90',
    bodyType: 'SUV',
    fuel: 'plug-in hybrid',
    category: 'Luxury car',
    newPrice: 72_000,
  },
  {
    make: 'Volvo',
    model: 'V90',
    bodyType: 'Estate',
    fuel: 'diesel',
    category: 'Luxury car',
    newPrice: 58_000,
  },
  {
    make: 'Lexus',
    model: 'RX',
    bodyType: 'SUV',
    fuel: 'hybrid',
    category: 'Luxury car',
    newPrice: 61_000,
  },
  {
    make: 'Porsche',
    model: '911',
    bodyType: 'Coupe',
    fuel: 'petrol',
    category: 'Luxury car',
    newPrice: 125_000,
  },
  {
    make: 'Porsche',
    model: 'Macan',
    bodyType: 'SUV',
    fuel: 'petrol',
    category: 'Luxury car',
    newPrice: 66_000,
  },
  {
    make: 'Jaguar',
    model: 'F-Type',
    bodyType: 'Convertible',
    fuel: 'petrol',
    category: 'Luxury car',
    newPrice: 82_000,
  },
  {
    make: 'Land Rover',
    model: 'Defender',
    bodyType: 'SUV',
    fuel: 'diesel',
    category: 'Luxury car',
    newPrice: 79_000,
  },
  {
    make: 'Genesis',
    model: 'G80',
    bodyType: 'Sedan',
    fuel: 'petrol',
    category: 'Luxury car',
    newPrice: 56_000,
  },
  {
    make: 'Cadillac',
    model: 'Escalade',
    bodyType: 'SUV',
    fuel: 'petrol',
    category: 'Luxury car',
    newPrice: 95_000,
  },
  {
    make: 'Alfa Romeo',
    model: 'Giulia',
    bodyType: 'Sedan',
    fuel: 'petrol',
    category: 'Luxury car',
    newPrice: 47_000,
  },
  {
    make: 'Volkswagen',
    model: 'Multivan',
    bodyType: 'Minibus',
    fuel: 'diesel',
    category: 'Microbus',
    newPrice: 61_000,
  },
  {
    make: 'Volkswagen',
    model: 'ID. Buzz',
    bodyType: 'Minibus',
    fuel: 'electric',
    category: 'Microbus',
    newPrice: 64_000,
  },
  {
    make: 'Renault',
    model: 'Trafic',
    bodyType: 'Minibus',
    fuel: 'diesel',
    category: 'Microbus',
    newPrice: 44_000,
  },
  {
    make: 'Peugeot',
    model: 'Traveller',
    bodyType: 'Minibus',
    fuel: 'diesel',
    category: 'Microbus',
    newPrice: 46_000,
  },
  {
    make: 'Citroën',
    model: 'SpaceTourer',
    bodyType: 'Minibus',
    fuel: 'diesel',
    category: 'Microbus',
    newPrice: 45_000,
  },
  {
    make: 'Mercedes-Benz',
    model: 'V-Class',
    bodyType: 'MPV',
    fuel: 'diesel',
    category: 'Microbus',
    newPrice: 66_000,
  },
  {
    make: 'Opel',
    model: 'Zafira Life',
    bodyType: 'MPV',
    fuel: 'diesel',
    category: 'Microbus',
    newPrice: 47_000,
  },
  {
    make: 'Chrysler',
    model: 'Pacifica',
    bodyType: 'MPV',
    fuel: 'plug-in hybrid',
    category: 'Microbus',
    newPrice: 52_000,
  },
  {
    make: 'Kia',
    model: 'Carnival',
    bodyType: 'MPV',
    fuel: 'petrol',
    category: 'Microbus',
    newPrice: 41_000,
  },
  {
    make: 'Toyota',
    model: 'Sienna',
    bodyType: 'MPV',
    fuel: 'hybrid',
    category: 'Microbus',
    newPrice: 43_000,
  },
  {
    make: 'Ford',
    model: 'Transit',
    bodyType: 'Minibus',
    fuel: 'diesel',
    category: 'Microbus',
    newPrice: 52_000,
  },
  {
    make: 'Chevrolet',
    model: 'Express',
    bodyType: 'Minibus',
    fuel: 'petrol',
    category: 'Microbus',
    newPrice: 48_000,
  },
  {
    make: 'Honda',
    model: 'Odyssey',
    bodyType: 'MPV',
    fuel: 'petrol',
    category: 'Microbus',
    newPrice: 42_000,
  },
];

/** US places the demo cars are at, as the place type-ahead labels them. */
export const DEMO_CITIES = [
  'Seattle, WA',
  'Portland, OR',
  'San Francisco, CA',
  'Los Angeles, CA',
  'San Diego, CA',
  'Phoenix, AZ',
  'Denver, CO',
  'Salt Lake City, UT',
  'Austin, TX',
  'Dallas, TX',
  'Houston, TX',
  'Chicago, IL',
  'Minneapolis, MN',
  'Detroit, MI',
  'Columbus, OH',
  'Nashville, TN',
  'Atlanta, GA',
  'Miami, FL',
  'Charlotte, NC',
  'Washington, DC',
  'Philadelphia, PA',
  'New York City, NY',
  'Boston, MA',
  'Tacoma, WA',
];

const COLOURS: { name: Colour; hex: string }[] = [
  { name: 'Black', hex: '#111827' },
  { name: 'White', hex: '#e5e7eb' },
  { name: 'Silver', hex: '#9ca3af' },
  { name: 'Grey', hex: '#4b5563' },
  { name: 'Blue', hex: '#1d4ed8' },
  { name: 'Red', hex: '#b91c1c' },
  { name: 'Green', hex: '#15803d' },
  { name: 'Brown', hex: '#78350f' },
];

const TRIMS = ['SE', 'Sport', 'Limited', 'Premium', 'Touring', 'Base', 'Luxury', 'Comfort'];

/** mulberry32: a small, fixed pseudo-random sequence. */
function sequence(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface CatalogueCar extends SeedCar {
  category: DemoCategoryName;
}

/**
 * Each body type's typical new price (the geometric mean of its lines'). A demo car's value leans
 * three quarters on it and a quarter on its own line's: with about two cars per model, the demo's
 * price guide (decision 032) compares cars by body type, and its ratings read sensibly only when
 * a body type's cars are priced alike.
 */
const TYPICAL_NEW_PRICE = new Map(
  [...new Set(LINES.map((line) => line.bodyType))].map((body) => {
    const prices = LINES.filter((line) => line.bodyType === body).map((line) => line.newPrice);
    const mean = prices.reduce((sum, price) => sum + Math.log(price), 0) / prices.length;
    return [body, Math.exp(mean)];
  }),
);
const demoNewPrice = (line: Line) =>
  Math.round((TYPICAL_NEW_PRICE.get(line.bodyType)! ** 0.75 * line.newPrice ** 0.25) / 500) * 500;

export function wideDemoCatalogue(count = 72, thisYear = 2026): CatalogueCar[] {
  const random = sequence(2026);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const line = LINES[i % LINES.length]!;
    const age = 1 + Math.floor(random() * (line.fuel === 'electric' ? 7 : 14));
    const year = thisYear - age;
    const mileageKm = Math.round((age * (9_000 + random() * 11_000)) / 100) * 100;
    const newPrice = demoNewPrice(line);
    // About 8 % either way around the price its age makes: the spread of a real market.
    const value = newPrice * 0.86 ** age * (0.92 + random() * 0.16);
    const askingPrice = Math.max(2_500, Math.round(value / 50) * 50);
    const condition: Condition = age <= 4 ? 'Excellent' : age <= 9 ? 'Good' : 'Fair';
    const transmission: Transmission =
      line.fuel === 'electric' || line.fuel === 'hybrid' || random() < 0.8 ? 'automatic' : 'manual';
    const colour = pick(COLOURS);
    const city = DEMO_CITIES[(i * 7) % DEMO_CITIES.length]!;
    return {
      // Trims differ between the cars of one line, so every demo car's name is its own.
      name: `${line.make} ${line.model} ${TRIMS[i % TRIMS.length]}`,
      year,
      location: city,
      condition,
      mileageKm,
      askingPrice,
      originalPrice: newPrice,
      color: colour.hex,
      // No mileage in words: the car's page shows it in the site's unit (decision 013).
      description: `${year} ${line.make} ${line.model}, ${colour.name.toLowerCase()}, ${transmission} gearbox, ${line.fuel}. ${condition === 'Excellent' ? 'Like new, full service history.' : condition === 'Good' ? 'Well kept, serviced every year.' : 'Priced for its age; runs and drives well.'}`,
      category: line.category,
      make: line.make,
      model: line.model,
      bodyType: line.bodyType,
      fuel: line.fuel,
      transmission,
      colour: colour.name,
    };
  });
}
