import { z } from 'zod';
import { textSchema } from '../text.ts';
import { CATEGORY_NAMES, CONDITIONS, LISTING_STATUSES } from '../enums.ts';

export const ListingImageSchema = z.object({
  url: z.string(),
  thumbUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});

/** A car as category pages show it. Money is in minor units (cents) with its currency. */
export const ListingCardSchema = z.object({
  _id: z.uuid(),
  categoryId: z.uuid(),
  name: z.string(),
  /** Cover photo URL. */
  img: z.string().nullable(),
  images: z.array(ListingImageSchema),
  location: z.string(),
  reprice: z.number().int(),
  orprice: z.number().int(),
  currency: z.string(),
  year: z.number().int(),
  mileageKm: z.number().int().nullable(),
  condition: z.enum(CONDITIONS),
  status: z.enum(LISTING_STATUSES),
  /** While a buyer's card is being confirmed (status `reserved`): when the hold ends, ISO time. */
  reservedUntil: z.string().nullable(),
  /** The seller's name as shown on the listing. */
  seller: z.string(),
  sellerId: z.uuid(),
  sellerVerified: z.boolean(),
  advertised: z.boolean(),
  createdAt: z.string(),
});
export type ListingCard = z.infer<typeof ListingCardSchema>;

/** `GET /api/category/:id`: the category and its cars that can be booked now, newest first. */
export const CategoryDetailSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  icon: z.string(),
  listings: z.array(ListingCardSchema),
});
export type CategoryDetail = z.infer<typeof CategoryDetailSchema>;

/** `GET /api/listings/:id`: one car with everything the car page shows. */
export const ListingDetailSchema = ListingCardSchema.extend({
  description: z.string(),
  categoryName: z.string(),
});
export type ListingDetail = z.infer<typeof ListingDetailSchema>;

export const MAX_LISTING_PHOTOS = 8;
export const MIN_MODEL_YEAR = 1950;
/** Model years run up to next year (cars of next year's model go on sale this year). */
export const maxModelYear = () => new Date().getFullYear() + 1;

const priceCents = (label: string) =>
  z
    .number({ message: `${label} is required` })
    .int(`${label} must be a whole number of cents`)
    .positive(`${label} must be more than zero`)
    .max(100_000_000_00, `${label} is too high`);

/** The add-product form and `POST /api/product`, from one schema (prices in cents). */
export const ListingFieldsSchema = z.object({
  name: textSchema('Name', { max: 120 }),
  reprice: priceCents('Price'),
  orprice: priceCents('Original price'),
  location: textSchema('Location', { max: 120 }),
  year: z
    .number({ message: 'Model year is required' })
    .int('Model year must be a whole number')
    .min(MIN_MODEL_YEAR, `Model year must be ${MIN_MODEL_YEAR} or later`)
    .refine((year) => year <= maxModelYear(), 'Model year cannot be in the future'),
  mileageKm: z
    .number()
    .int('Mileage must be a whole number')
    .min(0, 'Mileage cannot be negative')
    .max(2_000_000, 'Mileage is too high')
    .nullable()
    .optional(),
  condition: z.enum(CONDITIONS, { message: 'Condition is required' }),
  describe: textSchema('Description', { max: 4000, multiline: true }),
  seller: textSchema('Seller name', { max: 80, min: 0 }).optional(),
  /** Upload URLs from `POST /api/uploads`, in order; the first is the cover. */
  images: z
    .array(z.string().min(1), { message: 'Image is required' })
    .min(1, 'Image is required')
    .max(MAX_LISTING_PHOTOS, `At most ${MAX_LISTING_PHOTOS} photos`),
});

export const CreateListingSchema = ListingFieldsSchema;
export type CreateListingInput = z.infer<typeof CreateListingSchema>;
/** `PUT`/`PATCH /api/listings/:id`: the fields to change; at least one. */
export const UpdateListingSchema = ListingFieldsSchema.partial().refine(
  (changes) => Object.values(changes).some((value) => value !== undefined),
  'Nothing to change: send at least one field',
);
export type UpdateListingInput = z.infer<typeof UpdateListingSchema>;

/** `POST /api/product?name=<category>`. */
export const ProductQuerySchema = z.object({
  name: z.enum(CATEGORY_NAMES, { message: 'Category is required' }),
});

/** A seller's own car in My Products. */
export const MyListingSchema = ListingCardSchema.extend({
  description: z.string(),
  categoryName: z.string(),
  bookingsCount: z.number().int(),
  openBookingsCount: z.number().int(),
  /** A booking of it is paid. */
  sold: z.boolean(),
});
export type MyListing = z.infer<typeof MyListingSchema>;
export const MyListingListSchema = z.array(MyListingSchema);

export const UploadResultSchema = z.object({
  success: z.literal(true),
  data: z.object({
    url: z.string(),
    thumbUrl: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  }),
});
export type UploadResult = z.infer<typeof UploadResultSchema>;
