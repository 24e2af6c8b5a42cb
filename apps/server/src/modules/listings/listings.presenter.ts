import type {
  BodyType,
  Colour,
  DealRating,
  Fuel,
  ListingBasics,
  ListingCard,
  MyListing,
  Transmission,
  VinDecoded,
} from '@carmarket/shared';
import { VinDecodeSchema } from '@carmarket/shared';
import type { listing } from '../../db/schema.ts';
import { liveHold } from './lifecycle.ts';

// Cars are read without their search document (listings.service.ts: listingWithSeller).
export type ListingRow = Omit<typeof listing.$inferSelect, 'searchDoc'> & {
  sellerVerified: boolean;
  /** The car's `deal_rating`, only while it is on sale (listings.service.ts). */
  dealRating: DealRating | null;
};
export type ListingDetailRow = ListingRow & {
  categoryName: string;
  /** The car's price guide (listing_deal); shown only with a rating, i.e. while on sale. */
  deal?: {
    fairCents: number;
    lowCents: number;
    highCents: number;
    comparables: number;
  } | null;
};

/**
 * The public shape of a car; never the raw row. A hold that has lapsed but not yet been swept
 * shows as what it is: the car is available.
 */
export function presentListingCard(row: ListingRow): ListingCard {
  const held = liveHold(row);
  return {
    _id: row.id,
    categoryId: row.categoryId,
    name: row.name,
    img: row.images[0]?.url ?? null,
    // A card shows its cover: 20 photos on each of a search's 24 cards weighed its answer down.
    images: row.images.slice(0, 1),
    photoCount: row.images.length,
    location: row.location,
    reprice: row.repriceCents,
    orprice: row.orpriceCents,
    currency: row.currency,
    year: row.year,
    mileageKm: row.mileageKm,
    condition: row.condition,
    make: row.make,
    model: row.model,
    // The database checks nothing of these but the form's lists, which the schemas enforce.
    bodyType: row.bodyType as BodyType | null,
    fuel: row.fuel as Fuel | null,
    transmission: row.transmission as Transmission | null,
    colour: row.colour as Colour | null,
    placeId: row.placeId,
    status: row.status === 'reserved' && !held ? 'available' : row.status,
    reservedUntil: held ? held.until.toISOString() : null,
    seller: row.sellerName,
    sellerId: row.sellerId,
    sellerVerified: row.sellerVerified,
    advertised: row.advertisedAt !== null,
    createdAt: row.createdAt.toISOString(),
    dealRating: row.dealRating,
  };
}

/*
 * Shapes that extend the card add their fields to the card object rather than spreading it into
 * a new one: spreading a 25-field object made My Products' 90 cars cost 0.47 ms to present
 * instead of 0.04 (decision 014).
 */

/**
 * What the car's VIN decodes as (kept by the VIN decoding, decision 033), when the decode is of
 * its present VIN; null before (or without) one, and for a VIN that cannot be decoded.
 */
function presentVinDecoded(row: ListingRow): VinDecoded | null {
  const kept = VinDecodeSchema.safeParse(row.vinDecoded);
  if (!kept.success || kept.data.vin !== row.vin) return null;
  const { make, model, year, trim, catalogue } = kept.data;
  return { make, ...(model && { model }), ...(year && { year }), ...(trim && { trim }), catalogue };
}

/** The car as the car page and My cars share it; the route adds the page's price history. */
export function presentListingDetail(row: ListingDetailRow): ListingBasics {
  return Object.assign(presentListingCard(row), {
    images: row.images,
    description: row.description,
    vin: row.vin,
    vinDecoded: presentVinDecoded(row),
    categoryName: row.categoryName,
    priceGuide:
      row.deal && row.dealRating
        ? {
            fair: row.deal.fairCents,
            low: row.deal.lowCents,
            high: row.deal.highCents,
            comparables: row.deal.comparables,
            rating: row.dealRating,
          }
        : null,
  });
}

/** One of the seller's own cars in My Products, with its bookings and whether it sold. */
export function presentMyListing(
  row: ListingDetailRow & {
    bookingsCount: number;
    openBookingsCount: number;
    sold: boolean;
    savedCount: number;
    views: number;
    saves: number;
    conversations: number;
  },
): MyListing {
  return Object.assign(presentListingDetail(row), {
    bookingsCount: row.bookingsCount,
    savedCount: row.savedCount,
    views: row.views,
    saves: row.saves,
    conversations: row.conversations,
    openBookingsCount: row.openBookingsCount,
    sold: row.sold,
  });
}
