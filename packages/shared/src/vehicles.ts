/**
 * The car data a listing is described by: makes and their models, body types, fuels, gearboxes
 * and colours. One list for the form, the server's validation, the search filters and the demo
 * data. "Other" is always allowed for a make or a model the list does not know.
 */

export const OTHER = 'Other';

/** Makes and their models, most sold first within each make. */
export const MAKES: Readonly<Record<string, readonly string[]>> = {
  'Alfa Romeo': ['Giulia', 'Stelvio', 'Tonale', 'Giulietta'],
  Audi: ['A3', 'A4', 'A6', 'A8', 'Q3', 'Q5', 'Q7', 'Q8', 'e-tron', 'Q4 e-tron', 'TT'],
  BMW: ['1 Series', '3 Series', '5 Series', '7 Series', 'X1', 'X3', 'X5', 'X7', 'i3', 'i4', 'iX'],
  BYD: ['Atto 3', 'Dolphin', 'Seal', 'Han'],
  Buick: ['Encore', 'Enclave', 'Envision'],
  Cadillac: ['Escalade', 'XT5', 'CT5', 'Lyriq'],
  Chevrolet: ['Silverado', 'Equinox', 'Malibu', 'Tahoe', 'Bolt', 'Express', 'Camaro', 'Traverse'],
  Chrysler: ['Pacifica', '300', 'Voyager'],
  Citroën: ['C3', 'C4', 'C5 Aircross', 'Berlingo', 'SpaceTourer'],
  Dacia: ['Sandero', 'Duster', 'Jogger', 'Spring'],
  Dodge: ['Charger', 'Challenger', 'Durango', 'Grand Caravan'],
  Fiat: ['500', 'Panda', 'Tipo', 'Doblo', 'Ducato', '500e'],
  Ford: [
    'F-150',
    'Focus',
    'Fiesta',
    'Mustang',
    'Escape',
    'Explorer',
    'Transit',
    'Transit Custom',
    'Mustang Mach-E',
    'Ranger',
  ],
  Genesis: ['G70', 'G80', 'GV70', 'GV80'],
  GMC: ['Sierra', 'Yukon', 'Acadia', 'Savana'],
  Honda: ['Civic', 'Accord', 'CR-V', 'HR-V', 'Jazz', 'Odyssey', 'Pilot'],
  Hyundai: [
    'i10',
    'i20',
    'i30',
    'Elantra',
    'Tucson',
    'Santa Fe',
    'Kona',
    'Ioniq 5',
    'Ioniq 6',
    'Staria',
    'H-1',
  ],
  Jaguar: ['XE', 'XF', 'F-Pace', 'E-Pace', 'I-Pace', 'F-Type'],
  Jeep: ['Wrangler', 'Grand Cherokee', 'Cherokee', 'Compass', 'Renegade'],
  Kia: ['Picanto', 'Rio', 'Ceed', 'Sportage', 'Sorento', 'Niro', 'EV6', 'Carnival', 'Telluride'],
  'Land Rover': ['Defender', 'Discovery', 'Range Rover', 'Range Rover Sport', 'Range Rover Evoque'],
  Lexus: ['IS', 'ES', 'LS', 'NX', 'RX', 'UX', 'LX'],
  Lincoln: ['Navigator', 'Aviator', 'Corsair'],
  Mazda: ['Mazda2', 'Mazda3', 'Mazda6', 'CX-3', 'CX-30', 'CX-5', 'CX-60', 'MX-5'],
  'Mercedes-Benz': [
    'A-Class',
    'C-Class',
    'E-Class',
    'S-Class',
    'GLA',
    'GLC',
    'GLE',
    'GLS',
    'EQA',
    'EQC',
    'EQS',
    'Sprinter',
    'Vito',
    'V-Class',
  ],
  Mini: ['Cooper', 'Countryman', 'Clubman'],
  Mitsubishi: ['Outlander', 'ASX', 'Eclipse Cross', 'L200', 'Space Star'],
  Nissan: [
    'Micra',
    'Sentra',
    'Altima',
    'Qashqai',
    'X-Trail',
    'Rogue',
    'Leaf',
    'Ariya',
    'NV200',
    'NV350 Urvan',
    'Navara',
  ],
  Opel: ['Corsa', 'Astra', 'Insignia', 'Mokka', 'Grandland', 'Vivaro', 'Zafira Life'],
  Peugeot: ['208', '308', '508', '2008', '3008', '5008', 'e-208', 'Traveller', 'Rifter'],
  Polestar: ['Polestar 2', 'Polestar 3', 'Polestar 4'],
  Porsche: ['911', 'Cayenne', 'Macan', 'Panamera', 'Taycan'],
  Renault: ['Clio', 'Captur', 'Megane', 'Austral', 'Zoe', 'Kangoo', 'Trafic', 'Master'],
  SEAT: ['Ibiza', 'Leon', 'Arona', 'Ateca', 'Tarraco'],
  Skoda: ['Fabia', 'Octavia', 'Superb', 'Kamiq', 'Karoq', 'Kodiaq', 'Enyaq'],
  Subaru: ['Impreza', 'Outback', 'Forester', 'XV', 'Crosstrek', 'Solterra'],
  Suzuki: ['Swift', 'Vitara', 'Jimny', 'S-Cross', 'Ignis'],
  Tesla: ['Model 3', 'Model Y', 'Model S', 'Model X', 'Cybertruck'],
  Toyota: [
    'Corolla',
    'Camry',
    'RAV4',
    'Yaris',
    'Prius',
    'Highlander',
    'Land Cruiser',
    'Hilux',
    'C-HR',
    'Tacoma',
    'Sienna',
    'HiAce',
    'Proace',
    'bZ4X',
  ],
  Volkswagen: [
    'Golf',
    'Polo',
    'Passat',
    'Tiguan',
    'Touareg',
    'T-Roc',
    'ID.3',
    'ID.4',
    'ID. Buzz',
    'Transporter',
    'Caddy',
    'Multivan',
    'Jetta',
  ],
  Volvo: ['XC40', 'XC60', 'XC90', 'S60', 'S90', 'V60', 'V90', 'EX30'],
};

export const MAKE_NAMES = Object.keys(MAKES) as readonly string[];

export const BODY_TYPES = [
  'Hatchback',
  'Sedan',
  'Estate',
  'SUV',
  'Coupe',
  'Convertible',
  'MPV',
  'Van',
  'Minibus',
  'Pickup',
] as const;
export type BodyType = (typeof BODY_TYPES)[number];

export const FUELS = ['petrol', 'diesel', 'hybrid', 'plug-in hybrid', 'electric', 'other'] as const;
export type Fuel = (typeof FUELS)[number];

export const TRANSMISSIONS = ['manual', 'automatic'] as const;
export type Transmission = (typeof TRANSMISSIONS)[number];

export const COLOURS = [
  'Black',
  'White',
  'Silver',
  'Grey',
  'Blue',
  'Red',
  'Green',
  'Brown',
  'Beige',
  'Yellow',
  'Orange',
  'Purple',
  'Other',
] as const;
export type Colour = (typeof COLOURS)[number];

/** Labels for people; the wire carries the lower-case values. */
export const FUEL_LABELS: Record<Fuel, string> = {
  petrol: 'Petrol',
  diesel: 'Diesel',
  hybrid: 'Hybrid',
  'plug-in hybrid': 'Plug-in hybrid',
  electric: 'Electric',
  other: 'Other',
};
export const TRANSMISSION_LABELS: Record<Transmission, string> = {
  manual: 'Manual',
  automatic: 'Automatic',
};

/** The models the list knows for a make; none for "Other" or an unknown make. */
export function modelsOf(make: string): readonly string[] {
  return Object.hasOwn(MAKES, make) ? MAKES[make]! : [];
}

export function isKnownMake(make: string): boolean {
  return make === OTHER || Object.hasOwn(MAKES, make);
}

/** A model is accepted when the make lists it, or it is "Other". */
export function isKnownModel(make: string, model: string): boolean {
  return model === OTHER || modelsOf(make).includes(model);
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * The make and model a car's name starts with ("Toyota HiAce Commuter" → Toyota, HiAce), for
 * cars listed without them (older cars, clients written against the first spec). A known make
 * with an unknown model gives that make and "Other"; an unknown make gives "Other" twice.
 */
export function inferMakeModel(name: string): { make: string; model: string } {
  const folded = ` ${fold(name).replace(/\s+/g, ' ').trim()} `;
  let best: { make: string; model: string; at: number } | undefined;
  for (const make of MAKE_NAMES) {
    const at = folded.indexOf(` ${fold(make)} `);
    if (at < 0 || (best && best.at <= at)) continue;
    const rest = folded.slice(at + fold(make).length + 1);
    // The longest model name that follows the make ("Range Rover Sport" before "Range Rover").
    const model = [...modelsOf(make)]
      .sort((a, b) => b.length - a.length)
      .find((candidate) => rest.startsWith(` ${fold(candidate)} `));
    best = { make, model: model ?? OTHER, at };
  }
  return best ? { make: best.make, model: best.model } : { make: OTHER, model: OTHER };
}
