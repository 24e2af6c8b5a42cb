import {
  ListingFieldsSchema,
  ProductQuerySchema,
  type CategoryName,
  type CreateListingInput,
  type MyListing,
  type UpdateListingInput,
} from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';

/** The API's own rules and messages for a car, and the category (which goes in the query). */
const ListingFormSchema = ListingFieldsSchema.extend({ category: ProductQuerySchema.shape.name });

/** What the form checks and sends: prices in cents, as the API takes them. */
export type ListingFormOutput = CreateListingInput & { category: CategoryName };

/** What the form holds: prices in dollars, as people type them; empty fields are undefined. */
export interface ListingFormValues {
  name: string;
  reprice: number;
  orprice: number;
  location: string;
  year: number;
  mileageKm: number | null;
  condition: CreateListingInput['condition'] | '';
  category: CategoryName | '';
  describe: string;
  seller: string;
  images: string[];
}

/** Dollars as typed to whole cents; NaN (an empty field) stays NaN, which reads "is required". */
const toCents = (dollars: number) => Math.round(dollars * 100);

const checkFields = zodResolver(ListingFormSchema);

/** The shared schema checks the form through the zod resolver, once the prices are in cents. */
export const listingFormResolver: Resolver<ListingFormValues, unknown, ListingFormOutput> = (
  values,
  context,
  options,
) =>
  checkFields(
    // The schema decides what an empty condition or category means ("… is required").
    {
      ...values,
      reprice: toCents(values.reprice),
      orprice: toCents(values.orprice),
    } as Parameters<typeof checkFields>[0],
    context,
    options as unknown as Parameters<typeof checkFields>[2],
  ) as ReturnType<Resolver<ListingFormValues, unknown, ListingFormOutput>>;

/** What `POST /api/product` takes, from what the form checked. */
export function toCreateInput({
  category: _category,
  ...fields
}: ListingFormOutput): CreateListingInput {
  return { ...fields, mileageKm: fields.mileageKm ?? null };
}

/** The form's starting values for one of the seller's cars (prices back in dollars). */
export function formValuesOf(car: MyListing): ListingFormValues {
  return {
    name: car.name,
    reprice: car.reprice / 100,
    orprice: car.orprice / 100,
    location: car.location,
    year: car.year,
    mileageKm: car.mileageKm,
    condition: car.condition,
    category: car.categoryName as CategoryName,
    describe: car.description,
    seller: car.seller,
    images: car.images.map((image) => image.url),
  };
}

/** Only what changed, for `PUT /api/listings/:id` (unchanged photos are not sent again). */
export function changesOf(car: MyListing, values: ListingFormOutput): UpdateListingInput {
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
  };
  const after: UpdateListingInput = toCreateInput(values);
  const changes: UpdateListingInput = {};
  for (const key of Object.keys(before) as (keyof UpdateListingInput)[]) {
    if (after[key] !== before[key]) Object.assign(changes, { [key]: after[key] });
  }
  const urls = car.images.map((image) => image.url);
  if (values.images.join('\n') !== urls.join('\n')) changes.images = values.images;
  return changes;
}
