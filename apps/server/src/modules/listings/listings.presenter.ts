import type {
  BodyType,
  Colour,
  Fuel,
  ListingCard,
  ListingDetail,
  MyListing,
  Transmission,
} from '@carmarket/shared';
import type { listing } from '../../db/schema.ts';

export type ListingRow = typeof listing.$inferSelect & { sellerVerified: boolean };
export type ListingDetailRow = ListingRow & { categoryName: string };

/**
 * The public shape of a car; never the raw row. A hold that has lapsed but not yet been swept
 * shows as what it is: the car is available.
 */
export function presentListingCard(row: ListingRow): ListingCard {
  const held =
    row.status === 'reserved' && row.holdExpiresAt !== null && row.holdExpiresAt > new Date();
  return {
    _id: row.id,
    categoryId: row.categoryId,
    name: row.name,
    img: row.images[0]?.url ?? null,
    images: row.images,
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
    reservedUntil: held ? row.holdExpiresAt!.toISOString() : null,
    seller: row.sellerName,
    sellerId: row.sellerId,
    sellerVerified: row.sellerVerified,
    advertised: row.advertisedAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentListingDetail(row: ListingDetailRow): ListingDetail {
  return {
    ...presentListingCard(row),
    description: row.description,
    vin: row.vin,
    categoryName: row.categoryName,
  };
}

/** One of the seller's own cars in My Products, with its bookings and whether it sold. */
export function presentMyListing(
  row: ListingDetailRow & { bookingsCount: number; openBookingsCount: number; sold: boolean },
): MyListing {
  return {
    ...presentListingDetail(row),
    bookingsCount: row.bookingsCount,
    openBookingsCount: row.openBookingsCount,
    sold: row.sold,
  };
}
