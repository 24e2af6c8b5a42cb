import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  BOOKING_CLOSE_REASONS,
  BOOKING_STATUSES,
  CONDITIONS,
  DEAL_RATINGS,
  DISPUTE_OUTCOMES,
  DISPUTE_STATUSES,
  LEDGER_ACCOUNTS,
  LEDGER_MOVEMENTS,
  LISTING_STATUSES,
  PAYMENT_STATUSES,
  PAYOUT_STATUSES,
  RELEASED_BY,
  ROLES,
  SETTLEMENT_STATES,
  type Role,
} from '@carmarket/shared';

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
const cents = (name: string) => bigint(name, { mode: 'number' });
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Cars buyers can find: available, or held while a card is confirmed (shown as reserved). */
export const ON_SALE_SQL = sql.raw(`status in ('available', 'reserved')`);

/** Quoted list for CHECK constraints, from the shared enums. */
const oneOf = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

// ---------------------------------------------------------------------------------------------
// Accounts: better-auth's four tables (user, session, account, verification) plus our fields.

export const user = pgTable(
  'user',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** The profile photo: the address of one of the person's uploads (`/media/...`). */
    image: text('image'),
    /** Pre-fills the booking form. */
    phone: text('phone'),
    /**
     * The roles the account holds, in the order it took them: empty until the person picks Buyer
     * or Seller right after signing up; a Buyer may add Seller later (decision 016). The first is
     * what the spec's single `role` field shows.
     */
    roles: text('roles')
      .array()
      .$type<Role[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    verified: boolean('verified').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('user_email_unique').on(sql`lower(${t.email})`),
    index('user_roles_idx').using('gin', t.roles),
    // The admin's people lists, newest first, a page at a time (a role is checked row by row:
    // the first page of a common role is found within its first rows).
    index('user_listed_idx')
      .on(t.createdAt.desc().nullsFirst(), t.email)
      .where(sql`${t.deletedAt} is null`),
    check('user_roles_check', sql`${t.roles} <@ array[${oneOf(ROLES)}]::text[]`),
  ],
);

/**
 * How many live (undeleted) accounts hold each role, and `*` how many there are in all: the
 * admin's people lists show their totals without counting 10,000 rows a page (decision 018).
 * Kept by triggers on "user" (migration 0011), whatever writes it: registration, a role added,
 * a deletion, better-auth's own writes.
 */
export const userCount = pgTable('user_count', {
  role: text('role').primaryKey(),
  live: integer('live').notNull(),
});

export const session = pgTable(
  'session',
  {
    id: id(),
    token: text('token').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    /** When the session last made a call, to a few minutes (plugins/auth.ts writes it). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('session_token_unique').on(t.token), index('session_user_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: id(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('account_user_idx').on(t.userId),
    uniqueIndex('account_provider_unique').on(t.providerId, t.accountId),
  ],
);

export const verification = pgTable(
  'verification',
  {
    id: id(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

// ---------------------------------------------------------------------------------------------
// Catalogue

export const category = pgTable(
  'category',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    icon: text('icon').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('category_name_unique').on(t.name),
    uniqueIndex('category_slug_unique').on(t.slug),
  ],
);

export interface ListingImage {
  url: string;
  thumbUrl: string;
  width: number;
  height: number;
}

export const listing = pgTable(
  'listing',
  {
    id: id(),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => category.id, { onDelete: 'restrict' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    /** The seller's name as typed on the form; defaults to the account's name. */
    sellerName: text('seller_name').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    condition: text('condition', { enum: CONDITIONS }).notNull(),
    location: text('location').notNull(),
    /** Model year. */
    year: integer('year').notNull(),
    mileageKm: integer('mileage_km'),
    make: text('make').notNull(),
    model: text('model').notNull(),
    bodyType: text('body_type'),
    fuel: text('fuel'),
    transmission: text('transmission'),
    colour: text('colour'),
    vin: text('vin'),
    /**
     * What the VIN decodes as (modules/vin), written when the VIN is saved; null until decoded or
     * without a VIN.
     */
    vinDecoded: jsonb('vin_decoded').$type<Record<string, unknown>>(),
    /** GeoNames id of the place picked from the type-ahead; null for a typed location. */
    placeId: integer('place_id'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    /** What text search matches: make, model, name and description (no stemming). */
    searchDoc: tsvector('search_doc').generatedAlwaysAs(
      sql`to_tsvector('simple'::regconfig, make || ' ' || model || ' ' || name || ' ' || description)`,
    ),
    repriceCents: cents('reprice_cents').notNull(),
    orpriceCents: cents('orprice_cents').notNull(),
    currency: text('currency').notNull(),
    /** Ordered; the first is the cover. */
    images: jsonb('images')
      .$type<ListingImage[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    status: text('status', { enum: LISTING_STATUSES }).notNull().default('available'),
    /** While reserved: the booking whose payment holds the car, and until when. */
    holdBookingId: uuid('hold_booking_id'),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    advertisedAt: timestamp('advertised_at', { withTimezone: true }),
    /**
     * The car's deal rating while it is on sale (decision 032): written with its `listing_deal`
     * row by the price guide, only when it changes, so search's deal filter and facet read it
     * from the car (and from `listing_onsale_filters_idx`) instead of looking it up per car.
     * Null without a rating; a car withdrawn may keep it until the next refresh (never shown).
     */
    dealRating: text('deal_rating', { enum: DEAL_RATINGS }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('listing_category_status_idx').on(t.categoryId, t.status, t.createdAt),
    index('listing_seller_idx').on(t.sellerId, t.createdAt),
    index('listing_advertised_idx')
      .on(t.advertisedAt)
      .where(sql`status in ('available', 'reserved') and advertised_at is not null`),
    // Search (decision 009): one partial index per sort order, each ending in id for keyset pages.
    index('listing_onsale_newest_idx').on(t.createdAt, t.id).where(ON_SALE_SQL),
    index('listing_onsale_price_idx').on(t.repriceCents, t.id).where(ON_SALE_SQL),
    index('listing_onsale_mileage_idx')
      .on(sql`coalesce(${t.mileageKm}, 2147483647)`, t.id)
      .where(ON_SALE_SQL),
    index('listing_onsale_year_idx').on(t.year, t.id).where(ON_SALE_SQL),
    index('listing_onsale_make_idx').on(t.make, t.model, t.createdAt, t.id).where(ON_SALE_SQL),
    // Counting and facets under several filters read this instead of the table (index-only).
    index('listing_onsale_filters_idx')
      .on(
        t.make,
        t.bodyType,
        t.fuel,
        t.transmission,
        t.year,
        t.repriceCents,
        t.mileageKm,
        t.condition,
        t.model,
        t.dealRating,
      )
      .where(ON_SALE_SQL),
    index('listing_onsale_category_idx').on(t.categoryId, t.createdAt, t.id).where(ON_SALE_SQL),
    // A seller's cars on sale (search's `seller=`, the seller's profile), newest first by keyset
    // pages; listing_seller_idx holds every state, so it would read their sold cars too.
    index('listing_onsale_seller_idx').on(t.sellerId, t.createdAt, t.id).where(ON_SALE_SQL),
    index('listing_onsale_text_idx').using('gin', t.searchDoc).where(ON_SALE_SQL),
    index('listing_onsale_place_idx')
      .using('gist', sql`ll_to_earth(${t.lat}, ${t.lng})`)
      .where(sql`status in ('available', 'reserved') and lat is not null`),
    // The VIN job's claim (modules/vin/vin-backfill.ts): cars with a VIN not decoded yet,
    // claimed, or failed, newest first. Each arm of the claim's WHERE implies one of this
    // predicate's, so the claim reads these few entries instead of the table; a decoded car (or
    // one vPIC does not know) leaves it.
    index('listing_vin_waiting_idx')
      .on(t.createdAt)
      .where(
        sql`vin is not null and (vin_decoded is null or (vin_decoded->>'claimedAt') is not null or (vin_decoded->>'failed') is not null)`,
      ),
    index('listing_hold_expiry_idx')
      .on(t.holdExpiresAt)
      .where(sql`${t.status} = 'reserved'`),
    check('listing_status_check', sql`${t.status} in (${oneOf(LISTING_STATUSES)})`),
    check('listing_condition_check', sql`${t.condition} in (${oneOf(CONDITIONS)})`),
    check('listing_money_check', sql`${t.repriceCents} >= 0 and ${t.orpriceCents} >= 0`),
    check('listing_year_check', sql`${t.year} between 1886 and 2100`),
    check('listing_mileage_check', sql`${t.mileageKm} is null or ${t.mileageKm} >= 0`),
    check('listing_currency_check', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('listing_place_check', sql`(${t.lat} is null) = (${t.lng} is null)`),
    check(
      'listing_deal_rating_check',
      sql`${t.dealRating} is null or ${t.dealRating} in (${oneOf(DEAL_RATINGS)})`,
    ),
  ],
);

/**
 * How many of each seller's cars are on sale (available or reserved) and sold, for their profile
 * (decision 048): kept by triggers on `listing` (migration 0023), whatever writes it, so a
 * dealer's profile reads one row instead of counting their cars. A statement moves a seller's
 * row only when it changes their counts; a hold (available to reserved) moves none.
 */
export const sellerCount = pgTable('seller_count', {
  sellerId: uuid('seller_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  onSale: integer('on_sale').notNull(),
  sold: integer('sold').notNull(),
});

/**
 * Each asking price a car has had, oldest first: one row when it is listed and one at each
 * change (the current price is the newest row).
 */
export const listingPriceChange = pgTable(
  'listing_price_change',
  {
    id: id(),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listing.id, { onDelete: 'cascade' }),
    priceCents: cents('price_cents').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('listing_price_change_listing_idx').on(t.listingId, t.at),
    check('listing_price_change_money_check', sql`${t.priceCents} >= 0`),
  ],
);

/**
 * The price guide's fits (decision 032): per group of comparable cars, a regression of log price
 * on age and mileage. `scope` says how the group is drawn: `model` (make and model), `make_body`
 * (make and body type) or `body` (body type); the columns the scope does not use are ''.
 * Replaced whole by each refresh.
 */
export const priceGuideFit = pgTable(
  'price_guide_fit',
  {
    scope: text('scope', { enum: ['model', 'make_body', 'body'] }).notNull(),
    currency: text('currency').notNull(),
    make: text('make').notNull().default(''),
    model: text('model').notNull().default(''),
    bodyType: text('body_type').notNull().default(''),
    /** How many cars the fit was drawn from. */
    comparables: integer('comparables').notNull(),
    intercept: doublePrecision('intercept').notNull(),
    /** Change in log price per year of age. */
    ageSlope: doublePrecision('age_slope').notNull(),
    /** Change in log price per 10,000 km. */
    mileageSlope: doublePrecision('mileage_slope').notNull(),
    /** The group's mean mileage in km, used for a car whose mileage is not given. */
    meanMileageKm: doublePrecision('mean_mileage_km').notNull(),
    /** Standard deviation of the residuals (log price): the band's half-width. */
    residualSd: doublePrecision('residual_sd').notNull(),
    fittedAt: timestamp('fitted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.currency, t.make, t.model, t.bodyType] }),
    check('price_guide_fit_scope_check', sql`${t.scope} in ('model', 'make_body', 'body')`),
  ],
);

/**
 * The body type most cars of a make and model in the price guide's market have (decision 048),
 * for a car or a seller's guide without one: written by each refresh with the fits, so a guide
 * asked without a body type reads one row instead of counting the model's cars.
 */
export const priceGuideBody = pgTable(
  'price_guide_body',
  {
    currency: text('currency').notNull(),
    make: text('make').notNull(),
    model: text('model').notNull(),
    bodyType: text('body_type').notNull(),
    /** How many cars of the make and model in the market have that body type. */
    cars: integer('cars').notNull(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.make, t.model] })],
);

/**
 * A car on sale's place against its price guide: written from the newest fits when the car is
 * listed or edited and by each refresh; no row when its group has too few comparables. Kept apart
 * from `listing` so a refresh rewrites a narrow table, not every index of the cars'.
 */
export const listingDeal = pgTable(
  'listing_deal',
  {
    listingId: uuid('listing_id')
      .primaryKey()
      .references(() => listing.id, { onDelete: 'cascade' }),
    fairCents: cents('fair_cents').notNull(),
    lowCents: cents('low_cents').notNull(),
    highCents: cents('high_cents').notNull(),
    comparables: integer('comparables').notNull(),
    /**
     * The `deal` sort's key, lowest first: the rating's rank (great 0), plus asking over fair
     * price r as r / (1 + r) (decision 032).
     */
    ratio: doublePrecision('ratio').notNull(),
    rating: text('rating', { enum: DEAL_RATINGS }).notNull(),
  },
  (t) => [
    index('listing_deal_ratio_idx').on(t.ratio, t.listingId),
    check('listing_deal_rating_check', sql`${t.rating} in (${oneOf(DEAL_RATINGS)})`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Bookings and payments

export const booking = pgTable(
  'booking',
  {
    id: id(),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listing.id, { onDelete: 'restrict' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    buyerName: text('buyer_name').notNull(),
    buyerEmail: text('buyer_email').notNull(),
    phone: text('phone').notNull(),
    location: text('location').notNull(),
    /** Asking price when booked: what the buyer pays. */
    priceCents: cents('price_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: BOOKING_STATUSES }).notNull().default('pending'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    transactionId: text('transaction_id'),
    /** Why a closed booking closed (what happened to the car); null unless closed. */
    closedReason: text('closed_reason', { enum: BOOKING_CLOSE_REASONS }),
    /** The buyer's Idempotency-Key of the request that made it: a retry answers this booking. */
    requestKey: text('request_key'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The last line against selling one car twice.
    uniqueIndex('booking_one_paid_per_listing')
      .on(t.listingId)
      .where(sql`${t.status} = 'paid'`),
    uniqueIndex('booking_one_open_per_buyer_listing')
      .on(t.buyerId, t.listingId)
      .where(sql`${t.status} = 'pending'`),
    uniqueIndex('booking_request_key').on(t.buyerId, t.requestKey),
    index('booking_buyer_idx').on(t.buyerId, t.createdAt),
    index('booking_listing_idx').on(t.listingId),
    check('booking_status_check', sql`${t.status} in (${oneOf(BOOKING_STATUSES)})`),
    check('booking_money_check', sql`${t.priceCents} >= 0`),
    check(
      'booking_closed_reason_check',
      sql`${t.closedReason} is null or ${t.closedReason} in (${oneOf(BOOKING_CLOSE_REASONS)})`,
    ),
    check(
      'booking_paid_check',
      sql`(${t.status} in ('paid', 'refunded')) = (${t.paidAt} is not null and ${t.transactionId} is not null)`,
    ),
  ],
);

export const payment = pgTable(
  'payment',
  {
    id: id(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => booking.id, { onDelete: 'restrict' }),
    provider: text('provider').notNull(),
    providerPaymentId: text('provider_payment_id').notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('requires_payment'),
    /** The n-th attempt for the booking; part of the provider idempotency key. */
    attempt: integer('attempt').notNull().default(1),
    /**
     * When the buyer last submitted the card form for it (the car was held then). The sweeper
     * settles an open payment once its hold is gone; one never submitted, after an hour.
     */
    heldAt: timestamp('held_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payment_provider_id_unique').on(t.provider, t.providerPaymentId),
    index('payment_booking_idx').on(t.bookingId),
    check('payment_status_check', sql`${t.status} in (${oneOf(PAYMENT_STATUSES)})`),
    check('payment_money_check', sql`${t.amountCents} >= 0`),
  ],
);

/**
 * Every hold a buyer took on a car, and from which address, so that holds cannot be recycled
 * (issue 29): a buyer waits before holding a car they let go again, holds a few cars a day, and
 * an address has a few live holds at once. The car's row says whether a hold is live.
 */
export const carHold = pgTable(
  'car_hold',
  {
    id: id(),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listing.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => booking.id, { onDelete: 'cascade' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** The address the hold was asked from, an IPv6 one by its /64 (decision 039). */
    ip: text('ip').notNull(),
    /**
     * The browser the hold was asked from (its `carmarket.browser` cookie), so that accounts
     * taking turns in one browser are known as one (decision 047); null before that record.
     */
    browser: text('browser'),
    heldAt: timestamp('held_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** When it was given back before expiresAt (booking cancelled, payment canceled); else null. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('car_hold_buyer_idx').on(t.buyerId, t.heldAt),
    index('car_hold_ip_idx').on(t.ip, t.expiresAt),
    index('car_hold_held_at_idx').on(t.heldAt),
    index('car_hold_listing_idx').on(t.listingId, t.heldAt),
  ],
);

// ---------------------------------------------------------------------------------------------
// Hand-over, payouts, disputes and the ledger (issue 35, decision 037)

/**
 * Where a paid booking's money is: one row per paid booking, written in the sale's transaction.
 * The fee is fixed then (PLATFORM_FEE_PERCENT at payment time, rounded up to the minor unit).
 */
export const settlement = pgTable(
  'settlement',
  {
    bookingId: uuid('booking_id')
      .primaryKey()
      .references(() => booking.id, { onDelete: 'restrict' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    priceCents: cents('price_cents').notNull(),
    feeCents: cents('fee_cents').notNull(),
    sellerCents: cents('seller_cents').notNull(),
    currency: text('currency').notNull(),
    state: text('state', { enum: SETTLEMENT_STATES }).notNull().default('awaiting-handover'),
    /** When the money goes to the seller by itself unless disputed (paid + HANDOVER_RELEASE_DAYS). */
    releaseDueAt: timestamp('release_due_at', { withTimezone: true }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
    releasedBy: text('released_by', { enum: RELEASED_BY }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('settlement_due_idx')
      .on(t.releaseDueAt)
      .where(sql`${t.state} = 'awaiting-handover'`),
    index('settlement_seller_idx').on(t.sellerId, t.state),
    check('settlement_state_check', sql`${t.state} in (${oneOf(SETTLEMENT_STATES)})`),
    check(
      'settlement_split_check',
      sql`${t.feeCents} >= 0 and ${t.sellerCents} >= 0 and ${t.feeCents} + ${t.sellerCents} = ${t.priceCents}`,
    ),
    check(
      'settlement_released_check',
      sql`(${t.state} = 'released') = (${t.releasedAt} is not null and ${t.releasedBy} is not null)`,
    ),
    check(
      'settlement_refunded_check',
      sql`(${t.state} = 'refunded') = (${t.refundedAt} is not null)`,
    ),
  ],
);

/** A buyer's dispute of a paid booking (at most one per booking), and an admin's ruling. */
export const dispute = pgTable(
  'dispute',
  {
    id: id(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => booking.id, { onDelete: 'restrict' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    status: text('status', { enum: DISPUTE_STATUSES }).notNull().default('open'),
    outcome: text('outcome', { enum: DISPUTE_OUTCOMES }),
    note: text('note'),
    resolvedBy: uuid('resolved_by').references(() => user.id, { onDelete: 'restrict' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('dispute_booking_unique').on(t.bookingId),
    index('dispute_status_idx').on(t.status, t.createdAt, t.id),
    check('dispute_status_check', sql`${t.status} in (${oneOf(DISPUTE_STATUSES)})`),
    check(
      'dispute_outcome_check',
      sql`(${t.status} = 'open') = (${t.outcome} is null) and (${t.outcome} is null or ${t.outcome} in (${oneOf(DISPUTE_OUTCOMES)}))`,
    ),
  ],
);

/**
 * Double-entry ledger: each movement of a booking's money is a few entries summing to zero,
 * written in the transaction that changes the state. A movement happens once per booking (the
 * unique index), so a replayed request moves nothing twice.
 */
export const ledgerEntry = pgTable(
  'ledger_entry',
  {
    id: id(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => booking.id, { onDelete: 'restrict' }),
    movement: text('movement', { enum: LEDGER_MOVEMENTS }).notNull(),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    /** The seller whose balance it is, for the `seller` account; null for the platform's. */
    sellerId: uuid('seller_id').references(() => user.id, { onDelete: 'restrict' }),
    /** Signed, in minor units. */
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ledger_entry_once').on(t.bookingId, t.movement, t.account),
    index('ledger_entry_seller_idx').on(t.sellerId, t.account),
    index('ledger_entry_account_idx').on(t.account, t.movement),
    check('ledger_entry_movement_check', sql`${t.movement} in (${oneOf(LEDGER_MOVEMENTS)})`),
    check('ledger_entry_account_check', sql`${t.account} in (${oneOf(LEDGER_ACCOUNTS)})`),
    check(
      'ledger_entry_seller_check',
      sql`(${t.account} = 'seller') = (${t.sellerId} is not null)`,
    ),
  ],
);

/** A seller's connected account at the payment provider (Stripe Connect, or the sandbox's). */
export const payoutAccount = pgTable(
  'payout_account',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => user.id, { onDelete: 'restrict' }),
    provider: text('provider').notNull(),
    accountId: text('account_id').notNull(),
    /** `onboarding` until the provider says payouts can go to it, then `ready`. */
    status: text('status', { enum: ['onboarding', 'ready'] })
      .notNull()
      .default('onboarding'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payout_account_provider_unique').on(t.provider, t.accountId),
    check('payout_account_status_check', sql`${t.status} in ('onboarding', 'ready')`),
  ],
);

/**
 * One payout per released booking: claimed as `sending` before the provider is asked (with the
 * booking's idempotency key), `paid` with its ledger entries once it answers. A crash between
 * leaves it `sending`; the payout sweep asks again with the same key.
 */
export const payout = pgTable(
  'payout',
  {
    id: id(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => booking.id, { onDelete: 'restrict' }),
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    provider: text('provider').notNull(),
    accountId: text('account_id').notNull(),
    status: text('status', { enum: PAYOUT_STATUSES }).notNull().default('sending'),
    transferId: text('transfer_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payout_booking_unique').on(t.bookingId),
    index('payout_seller_idx').on(t.sellerId, t.createdAt, t.id),
    index('payout_sending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'sending'`),
    check('payout_status_check', sql`${t.status} in (${oneOf(PAYOUT_STATUSES)})`),
    check('payout_money_check', sql`${t.amountCents} >= 0`),
    check(
      'payout_paid_check',
      sql`(${t.status} = 'paid') = (${t.paidAt} is not null and ${t.transferId} is not null)`,
    ),
  ],
);

/** Provider events already handled: webhooks arrive more than once. */
export const processedEvent = pgTable(
  'processed_event',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);

// ---------------------------------------------------------------------------------------------
// Uploads and the audit trail

export const upload = pgTable(
  'upload',
  {
    id: id(),
    ownerId: uuid('owner_id').references(() => user.id, { onDelete: 'set null' }),
    key: text('key').notNull(),
    thumbKey: text('thumb_key').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('upload_key_unique').on(t.key),
    index('upload_owner_idx').on(t.ownerId, t.createdAt),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    /** Null for the system (the payment sweeper, webhooks). */
    actorId: uuid('actor_id').references(() => user.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_actor_idx').on(t.actorId),
  ],
);

// ---------------------------------------------------------------------------------------------
// The built-in sandbox card processor's own records (it stands in for Stripe's servers).

/** The sandbox's transfers to sellers' accounts: the built-in payout ledger (decision 037). */
export const sandboxTransfer = pgTable(
  'sandbox_transfer',
  {
    /** `tr_...`, like Stripe's. */
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    bookingId: text('booking_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sandbox_transfer_idempotency_unique').on(t.idempotencyKey)],
);

export const sandboxIntent = pgTable(
  'sandbox_intent',
  {
    /** `pi_...`, like Stripe's. */
    id: text('id').primaryKey(),
    clientSecret: text('client_secret').notNull(),
    amountCents: cents('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    metadata: jsonb('metadata')
      .$type<Record<string, string>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    idempotencyKey: text('idempotency_key'),
    lastError: jsonb('last_error').$type<{
      code: string;
      message: string;
      decline_code?: string;
    }>(),
    refunded: boolean('refunded').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('sandbox_intent_client_secret_unique').on(t.clientSecret),
    uniqueIndex('sandbox_intent_idempotency_unique').on(t.idempotencyKey),
  ],
);

/**
 * Events the sandbox owes our webhook, kept until delivered: it retries with backoff, as Stripe
 * does, so a process that dies after a charge does not lose the news of it.
 */
export const sandboxEvent = pgTable(
  'sandbox_event',
  {
    /** `evt_...`, like Stripe's. */
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    payload: text('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When the next delivery may be tried (a claim pushes it forward, so one process sends it). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('sandbox_event_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.deliveredAt} is null`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Keeping track (decision 010): saved cars, saved searches, their matches and the notices owed.

const tsquery = customType<{ data: string }>({ dataType: () => 'tsquery' });

/** A car a person saved (the heart), with its price then. */
export const savedCar = pgTable(
  'saved_car',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listing.id, { onDelete: 'cascade' }),
    priceAtSavingCents: cents('price_at_saving_cents').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.listingId] }),
    index('saved_car_listing_idx').on(t.listingId),
    index('saved_car_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Views of a car a UTC day (issue 34, decision 027): one signed-in person per car per day, never
 * its seller or an admin. Written by the view counter's flush (modules/stats/car-views.ts), which
 * adds a few seconds' views at a time; days older than 40 are pruned by the cleanup job.
 */
export const carViewDay = pgTable(
  'car_view_day',
  {
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listing.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    views: integer('views').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.listingId, t.day] }),
    index('car_view_day_day_idx').on(t.day),
    check('car_view_day_views_check', sql`${t.views} >= 0`),
  ],
);

/**
 * A saved search: its query string as given, and the same filters as columns, so new cars are
 * matched against every saved search in one statement (decision 010). Null means "any".
 */
export const savedSearch = pgTable(
  'saved_search',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    query: text('query').notNull(),
    alerts: text('alerts', { enum: ['off', 'daily', 'instant'] })
      .notNull()
      .default('off'),
    categoryId: uuid('category_id'),
    makes: text('makes').array(),
    models: text('models').array(),
    bodyTypes: text('body_types').array(),
    fuels: text('fuels').array(),
    transmissions: text('transmissions').array(),
    conditions: text('conditions').array(),
    /** Deal ratings (decision 032) the car must have one of. */
    deals: text('deals').array(),
    yearMin: integer('year_min'),
    yearMax: integer('year_max'),
    priceMin: cents('price_min'),
    priceMax: cents('price_max'),
    mileageMax: integer('mileage_max'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    radiusM: doublePrecision('radius_m'),
    /** The text filter as the search call reads it (typos corrected), ready to match. */
    textQuery: tsquery('text_query'),
    /**
     * Keys a new car must share for this search to be worth checking: `make|model` for each
     * make and model named, `make|*` for a make named without models, `*` when no make is.
     */
    matchKeys: text('match_keys').array().notNull(),
    createdAt: createdAt(),
    lastVisitedAt: timestamp('last_visited_at', { withTimezone: true }),
    lastDigestAt: timestamp('last_digest_at', { withTimezone: true }),
  },
  (t) => [
    index('saved_search_user_idx').on(t.userId, t.createdAt),
    index('saved_search_digest_idx')
      .on(t.lastDigestAt)
      .where(sql`${t.alerts} = 'daily'`),
    check('saved_search_alerts_check', sql`${t.alerts} in ('off', 'daily', 'instant')`),
  ],
);

/**
 * A car that matched a saved search when it was listed; `notifiedAt` once its alert went out.
 * No foreign keys: a new car writes hundreds of these, and the two checks per row would double
 * the cost (decision 010). Deleting a saved search deletes its matches; cars are never deleted.
 */
export const savedSearchMatch = pgTable(
  'saved_search_match',
  {
    searchId: uuid('search_id').notNull(),
    listingId: uuid('listing_id').notNull(),
    matchedAt: timestamp('matched_at', { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.searchId, t.listingId] }),
    index('saved_search_match_unsent_idx')
      .on(t.searchId)
      .where(sql`${t.notifiedAt} is null`),
  ],
);

/** Cars listed but not yet matched against saved searches: the alert worker's queue. */
export const newCarQueue = pgTable('new_car_queue', {
  listingId: uuid('listing_id')
    .primaryKey()
    .references(() => listing.id, { onDelete: 'cascade' }),
  queuedAt: timestamp('queued_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * News about a car for the people who saved it (its price went down, it was sold, it is back on
 * sale), until sent; kept after, for when the news was told (a car back on sale shows so).
 */
export const carNotice = pgTable(
  'car_notice',
  {
    id: id(),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listing.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['price-drop', 'sold', 'back-on-sale'] }).notNull(),
    oldPriceCents: cents('old_price_cents'),
    newPriceCents: cents('new_price_cents'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('car_notice_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.sentAt} is null`),
    // A car's notices of one kind: the price drops told before, when it was last back on sale.
    index('car_notice_listing_kind_idx').on(t.listingId, t.kind, t.createdAt),
    check('car_notice_kind_check', sql`${t.kind} in ('price-drop', 'sold', 'back-on-sale')`),
  ],
);

/** Mail a person turned off with an unsubscribe link (saved-car notices; search alerts are per search). */
export const mailOptOut = pgTable(
  'mail_opt_out',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['saved-cars'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/**
 * Alert mail (search alerts, digests, saved-car notices) counted per person and day (UTC), at most
 * ALERT_MAILS_PER_DAY; past it the rest is held (`held`, with the notices to tell) for one mail
 * once the day is over (saved/alert-allowance.ts). Past days' rows go once nothing is held.
 */
export const alertMailDay = pgTable(
  'alert_mail_day',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    sent: integer('sent').notNull().default(0),
    held: boolean('held').notNull().default(false),
    heldNoticeIds: uuid('held_notice_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index('alert_mail_day_day_idx').on(t.day)],
);

/**
 * Mail decided inside a transaction (search alerts, saved-car notices), written with it and sent
 * after it by the mail worker: a refused or slow mail server never rolls back or holds the work
 * that decided to write (decision 010). A sent mail's row is deleted; one given up on is kept.
 */
export const mailQueue = pgTable(
  'mail_queue',
  {
    id: id(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    headers: jsonb('headers').$type<Record<string, string>>(),
    /** Tries so far; a claimed mail counts its try before it is sent. */
    attempts: integer('attempts').notNull().default(0),
    /** Not before then: now for new mail, later for a retry or while a worker holds it. */
    sendAfter: timestamp('send_after', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    /** Set when the server refused it for good or it failed too often: it stays for a reader. */
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_queue_due_idx')
      .on(t.sendAfter)
      .where(sql`${t.failedAt} is null`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Talk to the seller (decision 015): conversations about a car, their messages, and the live
// events each member's stream replays from (`Last-Event-ID`).

/**
 * One conversation per (car, buyer); the car's seller and that buyer are its only members. The
 * counters and read positions of each side live on the row, which every change locks first, so
 * they stay exact: unread counts, what the other side has read ("Seen"), and the mail owed.
 */
export const conversation = pgTable(
  'conversation',
  {
    id: id(),
    listingId: uuid('listing_id')
      .notNull()
      .references(() => listing.id, { onDelete: 'restrict' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    /** The car's seller (a car never changes hands on the site before it is sold). */
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    /** `seq` of the latest message: the list's order (newest activity first) and its cursor. */
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull().default(0),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    /** Messages to each side it has not read; zeroed by reading (or by writing). */
    buyerUnread: integer('buyer_unread').notNull().default(0),
    sellerUnread: integer('seller_unread').notNull().default(0),
    /** `seq` of the last message each side has read. */
    buyerReadSeq: bigint('buyer_read_seq', { mode: 'number' }).notNull().default(0),
    sellerReadSeq: bigint('seller_read_seq', { mode: 'number' }).notNull().default(0),
    /** When the oldest written message a side has not read arrived (the mail waits on it). */
    buyerUnreadSince: timestamp('buyer_unread_since', { withTimezone: true }),
    sellerUnreadSince: timestamp('seller_unread_since', { withTimezone: true }),
    /** The last "new message" mail to each side: at most one an hour. */
    buyerMailedAt: timestamp('buyer_mailed_at', { withTimezone: true }),
    sellerMailedAt: timestamp('seller_mailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('conversation_listing_buyer_unique').on(t.listingId, t.buyerId),
    index('conversation_buyer_idx').on(t.buyerId, t.lastSeq),
    index('conversation_seller_idx').on(t.sellerId, t.lastSeq),
    // A seller's reply figures read the conversations begun in the last 90 days (decision 035):
    // by seller_id alone a long-lived dealer's every conversation would be read.
    index('conversation_seller_created_idx').on(t.sellerId, t.createdAt),
    // The mail worker's look for unread messages waiting longer than a few minutes.
    index('conversation_buyer_unread_idx')
      .on(t.buyerUnreadSince)
      .where(sql`${t.buyerUnreadSince} is not null`),
    index('conversation_seller_unread_idx')
      .on(t.sellerUnreadSince)
      .where(sql`${t.sellerUnreadSince} is not null`),
    check('conversation_members_check', sql`${t.buyerId} <> ${t.sellerId}`),
    check('conversation_unread_check', sql`${t.buyerUnread} >= 0 and ${t.sellerUnread} >= 0`),
  ],
);

export const MESSAGE_KIND_VALUES = ['text', 'booking'] as const;

/**
 * A line of a conversation: what a member wrote (`text`), or an event line the server wrote
 * (`booking`). Never changed or deleted: a deleted account's messages stay, shown under
 * "Deleted user". `seq` orders them (and pages them) without ties.
 */
export const message = pgTable(
  'message',
  {
    id: id(),
    seq: bigint('seq', { mode: 'number' }).notNull().generatedAlwaysAsIdentity(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversation.id, { onDelete: 'restrict' }),
    senderId: uuid('sender_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    kind: text('kind', { enum: MESSAGE_KIND_VALUES }).notNull().default('text'),
    body: text('body').notNull(),
    /** For a `booking` line: the booking it tells of. */
    bookingId: uuid('booking_id').references(() => booking.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('message_seq_unique').on(t.seq),
    index('message_conversation_idx').on(t.conversationId, t.seq),
    check('message_kind_check', sql`${t.kind} in (${oneOf(MESSAGE_KIND_VALUES)})`),
    // The schemas allow 2,000 characters; this is the last wall, in characters too.
    check('message_body_check', sql`char_length(${t.body}) between 1 and 4000`),
  ],
);

export const CONVERSATION_EVENT_KINDS = ['message', 'read', 'conversation'] as const;

/**
 * What each member's live stream tells them, numbered per person without gaps (`no`), so a
 * stream that reconnects with `Last-Event-ID: n` is sent exactly the events after n, and a stream
 * that sees n+2 arrive before n+1 knows to read n+1 here. Kept a week (the worker prunes it).
 * No foreign keys, as for saved_search_match: written twice per message, read by primary key.
 */
export const conversationEvent = pgTable(
  'conversation_event',
  {
    userId: uuid('user_id').notNull(),
    no: bigint('no', { mode: 'number' }).notNull(),
    conversationId: uuid('conversation_id').notNull(),
    kind: text('kind', { enum: CONVERSATION_EVENT_KINDS }).notNull(),
    /** `message`: the new message; `read`: the last message read. */
    messageId: uuid('message_id'),
    /** `read`: who read it. */
    actorId: uuid('actor_id'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.no] }),
    check('conversation_event_kind_check', sql`${t.kind} in (${oneOf(CONVERSATION_EVENT_KINDS)})`),
    // Pruning by age reads this (a block range index: tiny, and rows arrive in time order).
    index('conversation_event_created_idx').using('brin', t.createdAt),
  ],
);

/**
 * The last event number of each person (see conversation_event). Its row is locked while a
 * transaction numbers an event, so numbers are given in the order their transactions commit.
 */
export const conversationEventCounter = pgTable('conversation_event_counter', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  lastNo: bigint('last_no', { mode: 'number' }).notNull(),
});

/** A seller blocked a buyer: no more messages between them, about any of the seller's cars. */
export const messageBlock = pgTable(
  'message_block',
  {
    sellerId: uuid('seller_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    buyerId: uuid('buyer_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.sellerId, t.buyerId] })],
);

/** A member reported a conversation: admins may read it while the report is open (unresolved). */
export const conversationReport = pgTable(
  'conversation_report',
  {
    id: id(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversation.id, { onDelete: 'restrict' }),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => user.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => user.id, { onDelete: 'set null' }),
  },
  (t) => [
    // One open report per person and conversation.
    uniqueIndex('conversation_report_open_unique')
      .on(t.conversationId, t.reporterId)
      .where(sql`${t.resolvedAt} is null`),
    index('conversation_report_created_idx').on(t.createdAt),
    index('conversation_report_conversation_idx').on(t.conversationId),
  ],
);

const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // node-postgres answers a Buffer, PGlite a Uint8Array.
  fromDriver: (value) => Buffer.from(value.buffer, value.byteOffset, value.byteLength),
});

/**
 * The sitemap index and the car sitemaps as last built, gzipped (decision 045): per site origin,
 * `index` and `cars-0`, `cars-1` ... each with its first and last car. Replaced whole by each
 * build, at most once per SITEMAP_REBUILD_MINUTES, and served from there.
 */
export const sitemapFile = pgTable(
  'sitemap_file',
  {
    origin: text('origin').notNull(),
    name: text('name').notNull(),
    fromId: uuid('from_id'),
    toId: uuid('to_id'),
    body: bytea('body').notNull(),
    builtAt: timestamp('built_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.origin, t.name] })],
);
