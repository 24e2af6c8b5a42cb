import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
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
  BOOKING_STATUSES,
  CONDITIONS,
  LISTING_STATUSES,
  PAYMENT_STATUSES,
  ROLES,
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
    image: text('image'),
    /** Null until the person picks Buyer or Seller right after signing up. */
    role: text('role', { enum: ROLES }),
    verified: boolean('verified').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('user_email_unique').on(sql`lower(${t.email})`),
    index('user_role_idx').on(t.role),
    check('user_role_check', sql`${t.role} is null or ${t.role} in (${oneOf(ROLES)})`),
  ],
);

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
      )
      .where(ON_SALE_SQL),
    index('listing_onsale_category_idx').on(t.categoryId, t.createdAt, t.id).where(ON_SALE_SQL),
    index('listing_onsale_text_idx').using('gin', t.searchDoc).where(ON_SALE_SQL),
    index('listing_onsale_place_idx')
      .using('gist', sql`ll_to_earth(${t.lat}, ${t.lng})`)
      .where(sql`status in ('available', 'reserved') and lat is not null`),
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
    index('booking_buyer_idx').on(t.buyerId, t.createdAt),
    index('booking_listing_idx').on(t.listingId),
    check('booking_status_check', sql`${t.status} in (${oneOf(BOOKING_STATUSES)})`),
    check('booking_money_check', sql`${t.priceCents} >= 0`),
    check(
      'booking_paid_check',
      sql`(${t.status} = 'paid') = (${t.paidAt} is not null and ${t.transactionId} is not null)`,
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
