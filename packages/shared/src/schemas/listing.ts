import { z } from 'zod';
import { textSchema } from '../text.ts';
import { CONDITIONS, DEAL_RATINGS, LISTING_STATUSES } from '../enums.ts';
import {
  BODY_TYPES,
  COLOURS,
  FUELS,
  isKnownMake,
  isKnownModel,
  OTHER,
  TRANSMISSIONS,
} from '../vehicles.ts';
import { vinProblem } from '../vin.ts';
import { IdSchema } from './common.ts';
import { VinDecodedSchema } from './vin.ts';

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
  /** On a card, the cover photo alone (none without photos); a car's own answer has every one. */
  images: z.array(ListingImageSchema),
  /** How many photos the car has. */
  photoCount: z.number().int(),
  location: z.string(),
  reprice: z.number().int(),
  orprice: z.number().int(),
  currency: z.string(),
  year: z.number().int(),
  mileageKm: z.number().int().nullable(),
  condition: z.enum(CONDITIONS),
  make: z.string(),
  model: z.string(),
  bodyType: z.enum(BODY_TYPES).nullable(),
  fuel: z.enum(FUELS).nullable(),
  transmission: z.enum(TRANSMISSIONS).nullable(),
  colour: z.enum(COLOURS).nullable(),
  /** GeoNames id of the place the car is at, when the seller picked one from the list. */
  placeId: z.number().int().nullable(),
  status: z.enum(LISTING_STATUSES),
  /** While a buyer's card is being confirmed (status `reserved`): when the hold ends, ISO time. */
  reservedUntil: z.string().nullable(),
  /** The seller's name as shown on the listing. */
  seller: z.string(),
  sellerId: z.uuid(),
  sellerVerified: z.boolean(),
  advertised: z.boolean(),
  createdAt: z.string(),
  /**
   * The car's price against its price guide (decision 032); null when it is not on sale or has
   * too few comparable cars.
   */
  dealRating: z.enum(DEAL_RATINGS).nullable(),
});
export type ListingCard = z.infer<typeof ListingCardSchema>;

/**
 * A price guide in minor units of the car's currency (decision 032): the fair price and its
 * low-high band, drawn from `comparables` similar cars.
 */
export const PriceGuideSchema = z.object({
  fair: z.number().int(),
  low: z.number().int(),
  high: z.number().int(),
  comparables: z.number().int(),
});
export type PriceGuide = z.infer<typeof PriceGuideSchema>;

/**
 * `GET /api/category/:id`: the category and a page of its cars on sale, newest first (`limit`,
 * `cursor` as for search).
 */
export const CategoryDetailSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  icon: z.string(),
  listings: z.array(ListingCardSchema),
  /** Cars of the category on sale, all pages together. */
  total: z.number().int(),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type CategoryDetail = z.infer<typeof CategoryDetailSchema>;

/** `GET /api/listings/:id`: one car with everything the car page shows. */
export const ListingDetailSchema = ListingCardSchema.extend({
  description: z.string(),
  vin: z.string().nullable(),
  /** What the VIN decodes as (decision 033); null without a VIN, or until it is decoded. */
  vinDecoded: VinDecodedSchema.nullable(),
  categoryName: z.string(),
  /** Null when the car is not on sale or has too few comparable cars. */
  priceGuide: PriceGuideSchema.extend({ rating: z.enum(DEAL_RATINGS) }).nullable(),
  /**
   * When the car was first listed, ISO time: a car withdrawn and put back on sale keeps it (its
   * time on the market is not restarted by a relisting).
   */
  listedAt: z.string(),
  /** Every asking price it has had, oldest first, the current price last (minor units). */
  priceHistory: z.array(z.object({ price: z.number().int(), at: z.string() })),
  /**
   * When a sold car was sold, ISO time: when its booking was paid (when the car became sold);
   * null for a car not sold.
   */
  soldAt: z.string().nullable(),
});
export type ListingDetail = z.infer<typeof ListingDetailSchema>;
/** A car as both the car page and My cars carry it: what the edit form starts from. */
export type ListingBasics = Omit<ListingDetail, 'listedAt' | 'priceHistory' | 'soldAt'>;

/**
 * `GET /api/listings/:id/similar`: up to 8 cars on sale like this one, the most alike first
 * (same make and model, then same body type near its price and year); never the car itself.
 */
export const SimilarCarsSchema = z.object({ items: z.array(ListingCardSchema) });
export type SimilarCars = z.infer<typeof SimilarCarsSchema>;

/** The most cars `GET /api/listings/cards` answers for: the web app's recently viewed list. */
export const MAX_CARDS_BY_ID = 12;

/** `GET /api/listings/cards?ids=<id>,<id>`: up to 12 cars by id, as cards. */
export const CardsByIdQuerySchema = z.object({
  ids: z.preprocess(
    (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value),
    z
      .array(IdSchema)
      .min(1, 'Name at least one car')
      .max(MAX_CARDS_BY_ID, `At most ${MAX_CARDS_BY_ID} cars`),
  ),
});

/**
 * The cars asked for, in the order asked, as they are now (a sold one says so); a car that does
 * not exist, or whose page the reader may not see (removed), is left out.
 */
export const CardsByIdSchema = z.object({ items: z.array(ListingCardSchema) });
export type CardsById = z.infer<typeof CardsByIdSchema>;

/** The most photos a car can have (issue 32: 8 were too few to judge a used car by). */
export const MAX_LISTING_PHOTOS = 20;
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
  /** GeoNames id from `GET /api/places`; the server looks up its coordinates. */
  placeId: z
    .number({ message: 'Pick a place from the list' })
    .int('Pick a place from the list')
    .positive('Pick a place from the list')
    .nullable()
    .optional(),
  year: z
    .number({ message: 'Model year is required' })
    .int('Model year must be a whole number')
    .min(MIN_MODEL_YEAR, `Model year must be ${MIN_MODEL_YEAR} or later`)
    .refine((year) => year <= maxModelYear(), 'Model year cannot be in the future'),
  mileageKm: z
    .number({ message: 'Mileage must be a number' })
    .int('Mileage must be a whole number')
    .min(0, 'Mileage cannot be negative')
    .max(2_000_000, 'Mileage is too high')
    .nullable()
    .optional(),
  condition: z.enum(CONDITIONS, { message: 'Condition is required' }),
  /** From the shipped list (`MAKES`), or "Other". Inferred from the name when left out. */
  make: z
    .string({ message: 'Make is required' })
    .refine(isKnownMake, `Choose a make from the list, or ${OTHER}`)
    .optional(),
  /** One of the make's models, or "Other". Inferred from the name when left out. */
  model: textSchema('Model', { max: 60 }).optional(),
  bodyType: z
    .enum(BODY_TYPES, { message: 'Choose a body type from the list' })
    .nullable()
    .optional(),
  fuel: z.enum(FUELS, { message: 'Choose a fuel from the list' }).nullable().optional(),
  transmission: z
    .enum(TRANSMISSIONS, { message: 'Choose manual or automatic' })
    .nullable()
    .optional(),
  colour: z.enum(COLOURS, { message: 'Choose a colour from the list' }).nullable().optional(),
  vin: z
    .string({ message: 'VIN must be text' })
    .transform((vin) => vin.trim().toUpperCase())
    .superRefine((vin, ctx) => {
      const problem = vin === '' ? null : vinProblem(vin);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((vin) => vin || null)
    .nullable()
    .optional(),
  describe: textSchema('Description', { max: 4000, multiline: true }),
  seller: textSchema('Seller name', { max: 80, min: 0 }).optional(),
  /** Upload URLs from `POST /api/uploads`, in order; the first is the cover. */
  images: z
    .array(z.string().min(1), { message: 'Image is required' })
    .min(1, 'Image is required')
    .max(MAX_LISTING_PHOTOS, `A car can have at most ${MAX_LISTING_PHOTOS} photos`)
    .optional(),
  /** The spec's single photo URL (an upload of yours); `images` wins when both are sent. */
  img: z.string({ message: 'Image must be an upload URL' }).min(1, 'Image is required').optional(),
});

type ListingFields = z.infer<typeof ListingFieldsSchema>;

/** A model must belong to its make (either may be "Other"). */
function checkModel(fields: Partial<ListingFields>, ctx: z.RefinementCtx) {
  if (fields.make === undefined || fields.model === undefined) return;
  if (!isKnownModel(fields.make, fields.model)) {
    ctx.addIssue({
      code: 'custom',
      path: ['model'],
      message: `Choose a ${fields.make === OTHER ? 'model' : `${fields.make} model`} from the list, or ${OTHER}`,
    });
  }
}

export const CreateListingSchema = ListingFieldsSchema.superRefine((fields, ctx) => {
  if (!fields.images && !fields.img) {
    ctx.addIssue({ code: 'custom', path: ['images'], message: 'Image is required' });
  }
  if ((fields.make === undefined) !== (fields.model === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [fields.make === undefined ? 'make' : 'model'],
      message: 'Send make and model together',
    });
  }
  checkModel(fields, ctx);
});
export type CreateListingInput = z.infer<typeof CreateListingSchema>;
/** `PUT`/`PATCH /api/listings/:id`: the fields to change; at least one. */
export const UpdateListingSchema = ListingFieldsSchema.partial()
  .refine(
    (changes) => Object.values(changes).some((value) => value !== undefined),
    'Nothing to change: send at least one field',
  )
  .superRefine(checkModel);
export type UpdateListingInput = z.infer<typeof UpdateListingSchema>;

/**
 * `POST /api/product?name=<category>`: any category's name (admins add categories), so the
 * server, not this schema, finds whether it is one.
 */
export const ProductQuerySchema = z.object({
  name: z.string({ message: 'Category is required' }).trim().min(1, 'Category is required'),
});

/** A seller's own car in My Products (without the car page's price history). */
export const MyListingSchema = ListingDetailSchema.omit({
  listedAt: true,
  priceHistory: true,
  soldAt: true,
}).extend({
  bookingsCount: z.number().int(),
  openBookingsCount: z.number().int(),
  /** A booking of it is paid. */
  sold: z.boolean(),
  /** How many people saved it (no names). */
  savedCount: z.number().int(),
  /**
   * What it drew over the last 30 days, as its stats page counts them (CarStatsSchema): views,
   * saves made then and kept, and conversations begun then (the questions asked).
   */
  views: z.number().int(),
  saves: z.number().int(),
  conversations: z.number().int(),
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
