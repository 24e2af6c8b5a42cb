// A known market for the price guide's tests (and the search's deal filter, facet and sort).
import { eq } from 'drizzle-orm';
import { category, listing, user } from '../../db/schema.ts';
import type { TestApp } from '../../test/test-app.ts';

export interface MarketOptions {
  make?: string;
  model?: string;
  bodyType?: string;
  /** How many cars (30): enough for a make-and-model fit. */
  count?: number;
  /** A new car's price, in cents. */
  baseCents?: number;
  currency?: string;
}

/** The market's log-price falls this much per year of age and per 10,000 km. */
const AGE_FALL = 0.07;
const MILEAGE_FALL = 0.04;

/**
 * Lists `count` cars of one make and model straight into the database (the demo seller's, in the
 * first category), priced by a known function of age and mileage (`priceOf`) within about 4 %,
 * and answers that function. They are the market the next `app.runPriceGuide()` fits; a car a
 * test then lists through the API at `priceOf(year, km) * 0.7` is `great`, at 1.35 `overpriced`.
 * Each call should use its own make and model, unless the cars are meant to join one market.
 */
export async function seedMarket(app: TestApp, options: MarketOptions = {}) {
  const {
    make = 'Subaru',
    model = 'Outback',
    bodyType = 'Estate',
    count = 30,
    baseCents = 40_000_00,
    currency = 'USD',
  } = options;
  const thisYear = new Date().getFullYear();
  const priceOf = (year: number, mileageKm: number) =>
    Math.round(
      baseCents * Math.exp(-AGE_FALL * (thisYear - year) - (MILEAGE_FALL * mileageKm) / 10_000),
    );
  const db = app.database.db;
  const [seller] = await db
    .select({ id: user.id, name: user.name })
    .from(user)
    .where(eq(user.email, 'seller@demo.local'));
  const [firstCategory] = await db.select({ id: category.id }).from(category).limit(1);
  const rows = Array.from({ length: count }, (_, i) => {
    const year = thisYear - 1 - (i % 10);
    const mileageKm = 12_000 * (1 + ((i * 7) % 12)) + 3_000 * (thisYear - year);
    // A spread of -4 % .. +4 %, the same on every run.
    const noise = Math.exp((0.04 * (((i * 37) % 9) - 4)) / 4);
    const price = Math.round(priceOf(year, mileageKm) * noise);
    return {
      categoryId: firstCategory!.id,
      sellerId: seller!.id,
      sellerName: seller!.name,
      name: `${make} ${model} ${year} #${i + 1}`,
      condition: 'Good' as const,
      location: 'Portland, OR',
      year,
      mileageKm,
      make,
      model,
      bodyType,
      repriceCents: price,
      orpriceCents: price,
      currency,
    };
  });
  const cars = await db.insert(listing).values(rows).returning({ id: listing.id });
  return { priceOf, carIds: cars.map((car) => car.id), make, model, bodyType };
}
