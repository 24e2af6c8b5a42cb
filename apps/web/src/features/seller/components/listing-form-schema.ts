import {
  FUEL_LABELS,
  FUELS,
  isKnownModel,
  ListingFieldsSchema,
  OTHER,
  ProductQuerySchema,
  TRANSMISSION_LABELS,
  TRANSMISSIONS,
  type CreateListingInput,
  type ListingBasics,
  type UpdateListingInput,
} from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import type { DefaultValues, Path, Resolver } from 'react-hook-form';
import { z } from 'zod';

import { siteCurrency } from '../../../config/site';
import { fromKm, lengthUnitOf, toKm } from '../../../lib/units';

/** The unit sellers type mileage in, as buyers read it: miles beside dollars (lib/units.ts). */
export const mileageUnit = lengthUnitOf(siteCurrency);

/**
 * The API's own rules and messages for a car, and the category (which goes in the query). The
 * form asks for make and model, which the API leaves optional for older clients; and mileage for
 * new cars (a car listed before mileage was asked for can be edited without it).
 */
const EditFormSchema = ListingFieldsSchema.extend({
  category: ProductQuerySchema.shape.name,
  make: z
    .string({ message: 'Make is required' })
    .min(1, 'Make is required')
    .pipe(ListingFieldsSchema.shape.make.unwrap()),
  model: z.string({ message: 'Model is required' }).min(1, 'Model is required'),
});
const NewCarFormSchema = EditFormSchema.extend({
  mileageKm: z
    .number({ message: 'Mileage is required' })
    .pipe(ListingFieldsSchema.shape.mileageKm.unwrap().unwrap()),
});

function checkModel(
  fields: { make?: string | undefined; model?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (fields.make && fields.model && !isKnownModel(fields.make, fields.model)) {
    ctx.addIssue({
      code: 'custom',
      path: ['model'],
      message: `Choose a ${fields.make} model from the list, or ${OTHER}`,
    });
  }
}

/** What the form checks and sends: prices in cents, as the API takes them. */
export type ListingFormOutput = CreateListingInput & { category: string };

/**
 * What the form holds: prices in dollars and mileage in `mileageUnit`, as people type them (the
 * resolver hands on cents and kilometres); empty fields are undefined.
 */
export interface ListingFormValues {
  name: string;
  reprice: number;
  orprice: number;
  location: string;
  year: number;
  mileageKm: number | null;
  condition: CreateListingInput['condition'] | '';
  /** A category's name, as `POST /api/product?name=` takes it; '' until one is chosen. */
  category: string;
  make: string;
  model: string;
  bodyType: NonNullable<CreateListingInput['bodyType']> | null;
  fuel: NonNullable<CreateListingInput['fuel']> | null;
  transmission: NonNullable<CreateListingInput['transmission']> | null;
  colour: NonNullable<CreateListingInput['colour']> | null;
  vin: string;
  /** The place picked from the list, if one was; the location text is sent either way. */
  placeId: number | null;
  describe: string;
  seller: string;
  images: string[];
}

/** Dollars as typed to whole cents; NaN (an empty field) stays NaN, which reads "is required". */
const toCents = (dollars: number) => Math.round(dollars * 100);

const checkNewCar = zodResolver(NewCarFormSchema.superRefine(checkModel));
// Typed as the new-car check: both take the same values; this one lets mileage be empty.
const checkEdit = zodResolver(
  EditFormSchema.superRefine(checkModel),
) as unknown as typeof checkNewCar;

/** The shared schema checks the form through the zod resolver, once the prices are in cents. */
function resolverOf(
  checkFields: typeof checkNewCar,
): Resolver<ListingFormValues, unknown, ListingFormOutput> {
  return (values, context, options) =>
    checkFields(
      // The schema decides what an empty condition or category means ("… is required").
      {
        ...values,
        reprice: toCents(values.reprice),
        orprice: toCents(values.orprice),
        mileageKm: values.mileageKm === null ? null : toKm(values.mileageKm, mileageUnit),
      } as Parameters<typeof checkFields>[0],
      context,
      options as unknown as Parameters<typeof checkFields>[2],
    ) as ReturnType<Resolver<ListingFormValues, unknown, ListingFormOutput>>;
}

export const listingFormResolver = resolverOf(checkNewCar);
export const editListingFormResolver = resolverOf(checkEdit);

/** What `POST /api/product` takes, from what the form checked. */
export function toCreateInput({
  category: _category,
  ...fields
}: ListingFormOutput): CreateListingInput {
  return { ...fields, mileageKm: fields.mileageKm ?? null };
}

/** The form's starting values for one of the seller's cars, in the units people type. */
export function formValuesOf(car: ListingBasics): ListingFormValues {
  return {
    name: car.name,
    reprice: car.reprice / 100,
    orprice: car.orprice / 100,
    location: car.location,
    year: car.year,
    mileageKm: car.mileageKm === null ? null : fromKm(car.mileageKm, mileageUnit),
    condition: car.condition,
    category: car.categoryName,
    make: car.make,
    model: car.model,
    bodyType: car.bodyType,
    fuel: car.fuel,
    transmission: car.transmission,
    colour: car.colour,
    vin: car.vin ?? '',
    placeId: car.placeId,
    describe: car.description,
    seller: car.seller,
    images: car.images.map((image) => image.url),
  };
}

/** Only what changed, for `PUT /api/listings/:id` (unchanged photos are not sent again). */
export function changesOf(car: ListingBasics, values: ListingFormOutput): UpdateListingInput {
  const before: UpdateListingInput = {
    name: car.name,
    reprice: car.reprice,
    orprice: car.orprice,
    location: car.location,
    year: car.year,
    mileageKm: car.mileageKm,
    condition: car.condition,
    describe: car.description,
    seller: car.seller,
    make: car.make,
    model: car.model,
    bodyType: car.bodyType,
    fuel: car.fuel,
    transmission: car.transmission,
    colour: car.colour,
    vin: car.vin,
    placeId: car.placeId,
  };
  const after: UpdateListingInput = toCreateInput(values);
  // Mileage is typed in whole units: kilometres that read the same in them have not changed.
  if (
    car.mileageKm !== null &&
    after.mileageKm != null &&
    fromKm(after.mileageKm, mileageUnit) === fromKm(car.mileageKm, mileageUnit)
  ) {
    after.mileageKm = car.mileageKm;
  }
  const changes: UpdateListingInput = {};
  for (const key of Object.keys(before) as (keyof UpdateListingInput)[]) {
    if (after[key] !== before[key]) Object.assign(changes, { [key]: after[key] });
  }
  const urls = car.images.map((image) => image.url);
  const photos = values.images ?? [];
  if (photos.join('\n') !== urls.join('\n')) changes.images = photos;
  return changes;
}

/** The API names the fields as the form does (the category too, though it is sent as `name`). */
export const LISTING_FORM_FIELDS = {
  name: 'name',
  category: 'category',
  reprice: 'reprice',
  orprice: 'orprice',
  location: 'location',
  year: 'year',
  mileageKm: 'mileageKm',
  condition: 'condition',
  seller: 'seller',
  describe: 'describe',
  images: 'images',
  make: 'make',
  model: 'model',
  bodyType: 'bodyType',
  fuel: 'fuel',
  transmission: 'transmission',
  colour: 'colour',
  vin: 'vin',
  placeId: 'location',
} as const satisfies Partial<Record<string, Path<ListingFormValues>>>;

/** A new car's form before anything is typed. */
export const emptyListingFormValues: DefaultValues<ListingFormValues> = {
  name: '',
  location: '',
  mileageKm: null,
  condition: '',
  category: '',
  describe: '',
  seller: '',
  images: [],
  make: '',
  model: '',
  bodyType: null,
  fuel: null,
  transmission: null,
  colour: null,
  vin: '',
  placeId: null,
};

export const FUEL_OPTIONS = FUELS.map((fuel) => ({ value: fuel, label: FUEL_LABELS[fuel] }));
export const TRANSMISSION_OPTIONS = TRANSMISSIONS.map((transmission) => ({
  value: transmission,
  label: TRANSMISSION_LABELS[transmission],
}));

/** An optional choice: the empty option means "not given" (null). */
export const orNull = {
  setValueAs: (value: unknown) => (value === '' || value == null ? null : value),
};
