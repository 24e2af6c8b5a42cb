import type {
  BodyType,
  CategoryName,
  Colour,
  Condition,
  Fuel,
  Transmission,
} from '@carmarket/shared';

export interface SeedCar {
  name: string;
  year: number;
  location: string;
  condition: Condition;
  mileageKm: number;
  /** Whole dollars; stored as cents. */
  askingPrice: number;
  originalPrice: number;
  /** Paint for the drawn photo. */
  color: string;
  description: string;
  make: string;
  model: string;
  bodyType: BodyType;
  fuel: Fuel;
  transmission: Transmission;
  colour: Colour;
  /** Put in the home page's Advertised section, so a fresh install shows some. */
  advertised?: boolean;
}

/** The spec's categories, and the demo's own: seeded only with demo cars to put in them. */
export type DemoCategoryName = CategoryName | 'Hybrid car';

export interface SeedCategory {
  name: DemoCategoryName;
  slug: string;
  shape: 'van' | 'sedan' | 'hatch';
  /** The icon's paint, when not its shape's usual one. */
  iconColor?: string;
  cars: SeedCar[];
}

export const SEED_CATEGORIES: SeedCategory[] = [
  {
    name: 'Microbus',
    slug: 'microbus',
    shape: 'van',
    cars: [
      {
        name: 'Volkswagen Transporter T6.1 Kombi',
        advertised: true,
        make: 'Volkswagen',
        model: 'Transporter',
        bodyType: 'Minibus',
        fuel: 'diesel',
        transmission: 'automatic',
        colour: 'Blue',
        year: 2021,
        location: 'Portland, OR',
        condition: 'Excellent',
        mileageKm: 38_400,
        askingPrice: 41_900,
        originalPrice: 52_300,
        color: '#2f6fb3',
        description:
          'Nine seats, 2.0 TDI with the 7-speed DSG. One owner, full dealer service history, new front tyres in March. Rear climate control and a tow bar.',
      },
      {
        name: 'Toyota HiAce Commuter',
        make: 'Toyota',
        model: 'HiAce',
        bodyType: 'Minibus',
        fuel: 'diesel',
        transmission: 'manual',
        colour: 'White',
        year: 2019,
        location: 'Denver, CO',
        condition: 'Good',
        mileageKm: 96_200,
        askingPrice: 33_500,
        originalPrice: 46_800,
        color: '#e5e7eb',
        description:
          'Fourteen-seat shuttle used by a hotel on airport runs. Timing belt and water pump done last spring; small scuff on the rear bumper, seats cleaned and reupholstered.',
      },
      {
        name: 'Mercedes-Benz Sprinter 316 CDI Tourer',
        make: 'Mercedes-Benz',
        model: 'Sprinter',
        bodyType: 'Minibus',
        fuel: 'diesel',
        transmission: 'automatic',
        colour: 'Black',
        year: 2020,
        location: 'Austin, TX',
        condition: 'Excellent',
        mileageKm: 54_900,
        askingPrice: 48_750,
        originalPrice: 61_200,
        color: '#1f2937',
        description:
          'High roof, twelve seats with three-point belts, rear air conditioning and a reversing camera. Garaged, never used for freight.',
      },
      {
        name: 'Ford Transit Custom Kombi',
        make: 'Ford',
        model: 'Transit Custom',
        bodyType: 'Minibus',
        fuel: 'diesel',
        transmission: 'automatic',
        colour: 'Red',
        year: 2022,
        location: 'Columbus, OH',
        condition: 'Excellent',
        mileageKm: 21_300,
        askingPrice: 39_990,
        originalPrice: 47_500,
        color: '#b91c1c',
        description:
          'Nine seats, 2.0 EcoBlue with the automatic gearbox, still under factory warranty until 2027. Sliding doors on both sides.',
      },
      {
        name: 'Nissan NV350 Urvan',
        make: 'Nissan',
        model: 'NV350 Urvan',
        bodyType: 'Minibus',
        fuel: 'petrol',
        transmission: 'manual',
        colour: 'Silver',
        year: 2018,
        location: 'Phoenix, AZ',
        condition: 'Fair',
        mileageKm: 142_000,
        askingPrice: 18_400,
        originalPrice: 34_900,
        color: '#d4d4d8',
        description:
          'Honest work van with twelve seats. Runs and drives well; sun-faded roof paint and a cracked dashboard cover, priced for that.',
      },
      {
        name: 'Hyundai Staria Lounge',
        make: 'Hyundai',
        model: 'Staria',
        bodyType: 'MPV',
        fuel: 'petrol',
        transmission: 'automatic',
        colour: 'Grey',
        year: 2023,
        location: 'San Diego, CA',
        condition: 'Excellent',
        mileageKm: 12_800,
        askingPrice: 44_200,
        originalPrice: 51_600,
        color: '#0f766e',
        description:
          'Seven-seat lounge trim with captain chairs, panoramic windows and adaptive cruise control. Non-smoker, pet-free.',
      },
    ],
  },
  {
    name: 'Luxury car',
    slug: 'luxury-car',
    shape: 'sedan',
    cars: [
      {
        name: 'Mercedes-Benz S 500 4MATIC',
        advertised: true,
        make: 'Mercedes-Benz',
        model: 'S-Class',
        bodyType: 'Sedan',
        fuel: 'petrol',
        transmission: 'automatic',
        colour: 'Black',
        year: 2021,
        location: 'Miami, FL',
        condition: 'Excellent',
        mileageKm: 29_700,
        askingPrice: 86_900,
        originalPrice: 118_400,
        color: '#111827',
        description:
          'Long wheelbase with the rear comfort package, Burmester 3D sound and rear-axle steering. Certified pre-owned inspection passed last month.',
      },
      {
        name: 'BMW 740Li xDrive',
        make: 'BMW',
        model: '7 Series',
        bodyType: 'Sedan',
        fuel: 'petrol',
        transmission: 'automatic',
        colour: 'Grey',
        year: 2019,
        location: 'Chicago, IL',
        condition: 'Good',
        mileageKm: 71_500,
        askingPrice: 42_300,
        originalPrice: 97_800,
        color: '#334155',
        description:
          'Executive lounge seating, Bowers & Wilkins audio and soft-close doors. Brakes and battery replaced last year; light wear on the driver bolster.',
      },
      {
        name: 'Audi A8 L 55 TFSI quattro',
        make: 'Audi',
        model: 'A8',
        bodyType: 'Sedan',
        fuel: 'petrol',
        transmission: 'automatic',
        colour: 'Silver',
        year: 2020,
        location: 'Seattle, WA',
        condition: 'Excellent',
        mileageKm: 43_100,
        askingPrice: 54_800,
        originalPrice: 89_900,
        color: '#6b7280',
        description:
          'Matrix LED headlights, massage seats in all four positions and the driver assistance package. Dealer-maintained from new.',
      },
      {
        name: 'Lexus LS 500h',
        make: 'Lexus',
        model: 'LS',
        bodyType: 'Sedan',
        fuel: 'hybrid',
        transmission: 'automatic',
        colour: 'White',
        year: 2020,
        location: 'Atlanta, GA',
        condition: 'Excellent',
        mileageKm: 38_800,
        askingPrice: 57_500,
        originalPrice: 82_400,
        color: '#f5f5f4',
        description:
          'Hybrid with the Executive package and Kiriko glass trim. Quiet, frugal and still covered by the hybrid battery warranty.',
      },
      {
        name: 'Porsche Panamera 4',
        make: 'Porsche',
        model: 'Panamera',
        bodyType: 'Sedan',
        fuel: 'petrol',
        transmission: 'automatic',
        colour: 'Blue',
        year: 2019,
        location: 'Scottsdale, AZ',
        condition: 'Good',
        mileageKm: 58_300,
        askingPrice: 63_900,
        originalPrice: 101_200,
        color: '#7f1d1d',
        description:
          'Sport Chrono, adaptive air suspension and a Bose surround system. Two small stone chips on the bonnet; otherwise very clean.',
      },
      {
        name: 'Range Rover Autobiography',
        make: 'Land Rover',
        model: 'Range Rover',
        bodyType: 'SUV',
        fuel: 'diesel',
        transmission: 'automatic',
        colour: 'Green',
        year: 2018,
        location: 'Boston, MA',
        condition: 'Fair',
        mileageKm: 104_600,
        askingPrice: 38_700,
        originalPrice: 142_000,
        color: '#14532d',
        description:
          'Supercharged V8, heated and cooled massage seats. Air suspension compressor replaced; infotainment screen has a dead pixel line. Priced to sell.',
      },
    ],
  },
  {
    name: 'Electric car',
    slug: 'electric-car',
    shape: 'hatch',
    cars: [
      {
        name: 'Tesla Model 3 Long Range',
        advertised: true,
        make: 'Tesla',
        model: 'Model 3',
        bodyType: 'Sedan',
        fuel: 'electric',
        transmission: 'automatic',
        colour: 'White',
        year: 2021,
        location: 'San Jose, CA',
        condition: 'Excellent',
        mileageKm: 47_200,
        askingPrice: 27_900,
        originalPrice: 48_990,
        color: '#f8fafc',
        description:
          'Dual motor, 93% battery health measured at the last service. Enhanced Autopilot transfers with the car. Glass roof without chips.',
      },
      {
        name: 'Hyundai Ioniq 5 Limited AWD',
        make: 'Hyundai',
        model: 'Ioniq 5',
        bodyType: 'SUV',
        fuel: 'electric',
        transmission: 'automatic',
        colour: 'Grey',
        year: 2022,
        location: 'Minneapolis, MN',
        condition: 'Excellent',
        mileageKm: 31_600,
        askingPrice: 34_500,
        originalPrice: 55_900,
        color: '#9ca3af',
        description:
          '800-volt fast charging (10 to 80% in about 18 minutes), heat pump for winter range, vehicle-to-load adapter included.',
      },
      {
        name: 'Kia EV6 GT-Line',
        make: 'Kia',
        model: 'EV6',
        bodyType: 'SUV',
        fuel: 'electric',
        transmission: 'automatic',
        colour: 'Blue',
        year: 2022,
        location: 'Raleigh, NC',
        condition: 'Good',
        mileageKm: 40_900,
        askingPrice: 31_200,
        originalPrice: 52_600,
        color: '#1e3a8a',
        description:
          'Rear-wheel drive long range, meridian audio and the highway driving assist. Small kerb rash on one wheel.',
      },
      {
        name: 'Nissan Leaf e+ SV',
        make: 'Nissan',
        model: 'Leaf',
        bodyType: 'Hatchback',
        fuel: 'electric',
        transmission: 'automatic',
        colour: 'Red',
        year: 2020,
        location: 'Salt Lake City, UT',
        condition: 'Good',
        mileageKm: 52_400,
        askingPrice: 17_800,
        originalPrice: 39_000,
        color: '#dc2626',
        description:
          '62 kWh battery with 11 of 12 health bars, close to the range it had new. CHAdeMO and home charging cable included.',
      },
      {
        name: 'Volkswagen ID.4 Pro S',
        make: 'Volkswagen',
        model: 'ID.4',
        bodyType: 'SUV',
        fuel: 'electric',
        transmission: 'automatic',
        colour: 'Silver',
        year: 2021,
        location: 'Philadelphia, PA',
        condition: 'Excellent',
        mileageKm: 36_100,
        askingPrice: 28_400,
        originalPrice: 45_190,
        color: '#065f46',
        description:
          'Panoramic roof, heated steering wheel and the travel assist package. Software updated to the latest release by the dealer.',
      },
      {
        name: 'Chevrolet Bolt EUV Premier',
        make: 'Chevrolet',
        model: 'Bolt',
        bodyType: 'SUV',
        fuel: 'electric',
        transmission: 'automatic',
        colour: 'Black',
        year: 2023,
        location: 'Detroit, MI',
        condition: 'Excellent',
        mileageKm: 14_900,
        askingPrice: 24_300,
        originalPrice: 35_500,
        color: '#ea580c',
        description:
          'Replacement battery pack from the recall, with its own 8-year warranty. Super Cruise, ventilated seats and a 360 camera.',
      },
    ],
  },
];

/**
 * Categories of the wider demo set's own (SEED_DEMO_CARS=full), seeded only when demo cars go in
 * them: hybrids are not electric cars. The spec's three are seeded on every database.
 */
export const DEMO_CATEGORIES: SeedCategory[] = [
  { name: 'Hybrid car', slug: 'hybrid-car', shape: 'hatch', iconColor: '#d97706', cars: [] },
];
