import { randomUUID } from 'node:crypto';
import { inArray, isNull, and, sql } from 'drizzle-orm';
import type { Role } from '@carmarket/shared';
import { MEDIA_PREFIX, type Storage } from '../adapters/storage.ts';
import type { Db } from '../db/client.ts';
import {
  account,
  category,
  listing,
  listingPriceChange,
  upload,
  user,
  type ListingImage,
} from '../db/schema.ts';
import { renderCarPhoto, renderCategoryIcon } from './car-art.ts';
import type { PasswordHashing } from '../modules/auth/passwords.ts';
import { searchPlaces } from '../modules/places/gazetteer.ts';
import { DEMO_CATEGORIES, SEED_CATEGORIES, type SeedCar, type SeedCategory } from './cars.ts';
import { wideDemoCatalogue } from './catalogue.ts';

// The demo seller is verified: the home page promises verified sellers.
export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.local', name: 'Avery Admin', roles: ['admin'], verified: false },
  { email: 'seller@demo.local', name: 'Riverside Motors', roles: ['Seller'], verified: true },
  { email: 'buyer@demo.local', name: 'Jordan Buyer', roles: ['Buyer'], verified: false },
] as const satisfies ReadonlyArray<{
  email: string;
  name: string;
  roles: readonly Role[];
  verified: boolean;
}>;

const ICON_COLORS = { van: '#2563eb', sedan: '#7c3aed', hatch: '#059669' } as const;

async function store(storage: Storage, body: Buffer): Promise<string> {
  const key = `${randomUUID()}.webp`;
  await storage.put(key, body, 'image/webp');
  return storage.url(key);
}

/**
 * Fills an empty database: the three categories with icons, and unless demo data is off, the demo
 * admin, seller (verified) and buyer accounts and six cars in each category owned by the demo
 * seller, a few of them advertised; the wider set adds its cars, and the demo categories that
 * hold some of them. Does nothing when categories exist, so restarts keep user data.
 */
export async function seedDatabase(
  db: Db,
  storage: Storage,
  options: {
    demo: boolean;
    currency: string;
    demoPassword: string;
    passwords: PasswordHashing;
    /** `full` adds the wider demo set (decision 009) to the six cars per category. */
    demoCars?: 'small' | 'full';
  },
): Promise<{ seeded: boolean; listings: number }> {
  const [{ count } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(category);
  if (count > 0) return { seeded: false, listings: 0 };

  // Every demo car with its category: six per category, then the wider set when asked for.
  const extra = options.demo && options.demoCars === 'full' ? wideDemoCatalogue() : [];
  const seededCategories = [
    ...SEED_CATEGORIES,
    ...DEMO_CATEGORIES.filter((seed) => extra.some((car) => car.category === seed.name)),
  ];
  const categories = await Promise.all(
    seededCategories.map(async (seed, position) => ({
      seed,
      values: {
        name: seed.name,
        slug: seed.slug,
        position,
        icon: await store(
          storage,
          await renderCategoryIcon(seed.shape, seed.iconColor ?? ICON_COLORS[seed.shape]),
        ),
      },
    })),
  );

  const demoCars: { car: SeedCar; slug: string; shape: SeedCategory['shape'] }[] = options.demo
    ? [
        ...SEED_CATEGORIES.flatMap((seed) =>
          seed.cars.map((car) => ({ car, slug: seed.slug, shape: seed.shape })),
        ),
        ...extra.map((car) => {
          const seed = seededCategories.find((c) => c.name === car.category)!;
          return { car, slug: seed.slug, shape: seed.shape };
        }),
      ]
    : [];

  // Images first, outside the transaction: rendering takes a moment and needs no lock.
  const photos = options.demo
    ? await Promise.all(
        demoCars.map(async ({ car, shape }, i): Promise<ListingImage[]> => {
          const photo = await renderCarPhoto(shape, car.color, i);
          const [url, thumbUrl] = await Promise.all([
            store(storage, photo.full),
            store(storage, photo.thumb),
          ]);
          return [{ url, thumbUrl, width: photo.width, height: photo.height }];
        }),
      )
    : [];

  let listings = 0;
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(category)
      .values(categories.map((c) => c.values))
      .returning({ id: category.id, slug: category.slug });
    if (!options.demo) return;

    const people = await tx
      .insert(user)
      .values(
        DEMO_ACCOUNTS.map((person) => ({
          ...person,
          roles: [...person.roles],
          emailVerified: true,
        })),
      )
      .returning({ id: user.id, name: user.name, roles: user.roles });
    const passwordHash = await options.passwords.hash(options.demoPassword);
    await tx.insert(account).values(
      people.map((person) => ({
        userId: person.id,
        accountId: person.id,
        providerId: 'credential',
        password: passwordHash,
      })),
    );
    const seller = people.find((person) => person.roles.includes('Seller'));
    if (!seller) throw new Error('Could not create the demo seller');
    // The photos count as the seller's uploads, so editing a demo car can keep or reorder them.
    // Dated two days back: they are not the seller's uploads today, which the daily quota counts
    // (the wider demo set alone has more photos than a day's quota). They are in use, so the
    // sweep of unused uploads leaves them.
    const seededAt = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    const uploads = photos.flat().map((image) => ({
      createdAt: seededAt,
      ownerId: seller.id,
      key: image.url.slice(MEDIA_PREFIX.length),
      thumbKey: image.thumbUrl.slice(MEDIA_PREFIX.length),
      bytes: 0,
      width: image.width,
      height: image.height,
    }));
    if (uploads.length > 0) await tx.insert(upload).values(uploads);

    const now = Date.now();
    const rows = demoCars.map(({ car, slug }, index) => {
      const categoryId = inserted.find((c) => c.slug === slug)?.id;
      if (!categoryId) throw new Error(`Category ${slug} was not inserted`);
      const [place] = searchPlaces(car.location, 1);
      return {
        categoryId,
        sellerId: seller.id,
        sellerName: seller.name,
        name: car.name,
        description: car.description,
        condition: car.condition,
        location: car.location,
        year: car.year,
        mileageKm: car.mileageKm,
        make: car.make,
        model: car.model,
        bodyType: car.bodyType,
        fuel: car.fuel,
        transmission: car.transmission,
        colour: car.colour,
        ...(place && { location: place.label, placeId: place.id, lat: place.lat, lng: place.lng }),
        repriceCents: car.askingPrice * 100,
        orpriceCents: car.originalPrice * 100,
        currency: options.currency,
        images: photos[index] ?? [],
        // Spread creation times over the last weeks so "newest first" means something.
        createdAt: new Date(now - index * 9 * 3_600_000),
        // Advertised when listed, so a car advertised later comes before it.
        advertisedAt: car.advertised ? new Date(now - index * 9 * 3_600_000) : null,
      };
    });
    const listed = await tx.insert(listing).values(rows).returning({
      listingId: listing.id,
      priceCents: listing.repriceCents,
      at: listing.createdAt,
    });
    // Each car's price history starts with its asking price when it was listed.
    if (listed.length > 0) await tx.insert(listingPriceChange).values(listed);
    listings = rows.length;
  });
  return { seeded: true, listings };
}

/** Which demo accounts exist (and are not deleted), to remind people how to sign in. */
export async function demoAccountsPresent(db: Db): Promise<string[]> {
  const rows = await db
    .select({ email: user.email })
    .from(user)
    .where(
      and(
        inArray(
          user.email,
          DEMO_ACCOUNTS.map((a) => a.email),
        ),
        isNull(user.deletedAt),
      ),
    );
  return DEMO_ACCOUNTS.map((a) => a.email).filter((email) => rows.some((r) => r.email === email));
}
