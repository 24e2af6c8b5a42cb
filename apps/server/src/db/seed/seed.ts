import { randomUUID } from 'node:crypto';
import { inArray, isNull, and, sql } from 'drizzle-orm';
import { MEDIA_PREFIX, type Storage } from '../../plugins/storage.ts';
import type { Db } from '../client.ts';
import { hashPassword } from 'better-auth/crypto';
import { account, category, listing, upload, user, type ListingImage } from '../schema.ts';
import { renderCarPhoto, renderCategoryIcon } from './car-art.ts';
import { SEED_CATEGORIES } from './cars.ts';

export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.local', name: 'Avery Admin', role: 'admin' },
  { email: 'seller@demo.local', name: 'Riverside Motors', role: 'Seller' },
  { email: 'buyer@demo.local', name: 'Jordan Buyer', role: 'Buyer' },
] as const;

const ICON_COLORS = { van: '#2563eb', sedan: '#7c3aed', hatch: '#059669' } as const;

async function store(storage: Storage, body: Buffer): Promise<string> {
  const key = `${randomUUID()}.webp`;
  await storage.put(key, body, 'image/webp');
  return storage.url(key);
}

/**
 * Fills an empty database: the three categories with icons, and unless demo data is off, the demo
 * admin, seller and buyer accounts and six cars in each category owned by the demo seller. Does
 * nothing when categories exist, so restarts keep user data.
 */
export async function seedDatabase(
  db: Db,
  storage: Storage,
  options: { demo: boolean; currency: string; demoPassword: string },
): Promise<{ seeded: boolean; listings: number }> {
  const [{ count } = { count: 0 }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(category);
  if (count > 0) return { seeded: false, listings: 0 };

  const categories = await Promise.all(
    SEED_CATEGORIES.map(async (seed, position) => ({
      seed,
      values: {
        name: seed.name,
        slug: seed.slug,
        position,
        icon: await store(storage, await renderCategoryIcon(seed.shape, ICON_COLORS[seed.shape])),
      },
    })),
  );

  // Images first, outside the transaction: rendering takes a moment and needs no lock.
  const photos = options.demo
    ? await Promise.all(
        SEED_CATEGORIES.flatMap((seed, c) =>
          seed.cars.map(async (car, i): Promise<ListingImage[]> => {
            const photo = await renderCarPhoto(seed.shape, car.color, c * 10 + i);
            const [url, thumbUrl] = await Promise.all([
              store(storage, photo.full),
              store(storage, photo.thumb),
            ]);
            return [{ url, thumbUrl, width: photo.width, height: photo.height }];
          }),
        ),
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
      .values(DEMO_ACCOUNTS.map((person) => ({ ...person, emailVerified: true })))
      .returning({ id: user.id, name: user.name, role: user.role });
    const passwordHash = await hashPassword(options.demoPassword);
    await tx.insert(account).values(
      people.map((person) => ({
        userId: person.id,
        accountId: person.id,
        providerId: 'credential',
        password: passwordHash,
      })),
    );
    const seller = people.find((person) => person.role === 'Seller');
    if (!seller) throw new Error('Could not create the demo seller');
    // The photos count as the seller's uploads, so editing a demo car can keep or reorder them.
    const uploads = photos.flat().map((image) => ({
      ownerId: seller.id,
      key: image.url.slice(MEDIA_PREFIX.length),
      thumbKey: image.thumbUrl.slice(MEDIA_PREFIX.length),
      bytes: 0,
      width: image.width,
      height: image.height,
    }));
    if (uploads.length > 0) await tx.insert(upload).values(uploads);

    const now = Date.now();
    const rows = SEED_CATEGORIES.flatMap((seed) => {
      const categoryId = inserted.find((c) => c.slug === seed.slug)?.id;
      if (!categoryId) throw new Error(`Category ${seed.slug} was not inserted`);
      return seed.cars.map((car) => ({ car, categoryId }));
    }).map(({ car, categoryId }, index) => ({
      categoryId,
      sellerId: seller.id,
      sellerName: seller.name,
      name: car.name,
      description: car.description,
      condition: car.condition,
      location: car.location,
      year: car.year,
      mileageKm: car.mileageKm,
      repriceCents: car.askingPrice * 100,
      orpriceCents: car.originalPrice * 100,
      currency: options.currency,
      images: photos[index] ?? [],
      // Spread creation times over the last weeks so "newest first" means something.
      createdAt: new Date(now - index * 9 * 3_600_000),
    }));
    await tx.insert(listing).values(rows);
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
