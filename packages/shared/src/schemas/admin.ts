import { z } from 'zod';
import { textSchema } from '../text.ts';
import { MyListingSchema } from './listing.ts';

/** One user in the admin tables. `verify` is the spec's string "true" once an admin verified them. */
export const AdminUserSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  email: z.string(),
  /** The first role the account took (the spec's field); `roles` lists every role it holds. */
  role: z.enum(['Buyer', 'Seller', 'admin']).nullable(),
  roles: z.array(z.enum(['Buyer', 'Seller', 'admin'])),
  verify: z.literal('true').optional(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof AdminUserSchema>;
export const AdminUserListSchema = z.array(AdminUserSchema);

export const ADMIN_PAGE_SIZE = 20;

export const AllUsersQuerySchema = z.object({
  role: z.enum(['Seller', 'Buyer', 'admin']).optional(),
  q: textSchema('Search', { max: 100, min: 0 }).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(ADMIN_PAGE_SIZE),
});

export const AcknowledgedCountSchema = z.object({
  acknowledged: z.literal(true),
  modifiedCount: z.number().int().optional(),
  deletedCount: z.number().int().optional(),
});

/** Why an admin took a car off the site: mailed to its seller and kept in the audit log. */
const RemoveReasonSchema = textSchema('Reason', { max: 1000, multiline: true });

/**
 * `POST /api/listings/:id/remove`. Callers of the first API send no body (Fastify checks a missing
 * body as null), so the reason is optional here; the Remove car dialog asks for it
 * (RemoveCarFormSchema).
 */
export const RemoveListingSchema = z.object({ reason: RemoveReasonSchema.optional() }).nullish();
export type RemoveListingInput = z.infer<typeof RemoveListingSchema>;

/** The Remove car dialog: the seller is always told why. */
export const RemoveCarFormSchema = z.object({ reason: RemoveReasonSchema });
export type RemoveCarFormInput = z.infer<typeof RemoveCarFormSchema>;

/** `GET /api/users/:id/listings`: a person and their cars, every status, newest first (admins). */
export const UserCarsSchema = z.object({
  user: AdminUserSchema,
  listings: z.array(MyListingSchema),
});
export type UserCars = z.infer<typeof UserCarsSchema>;

export const AuditEntrySchema = z.object({
  _id: z.uuid(),
  action: z.string(),
  actor: z.object({ _id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  /** The booking an entry is about (`targetType` booking), with its car's name; else null. */
  booking: z
    .object({
      _id: z.uuid(),
      listingId: z.uuid(),
      carName: z.string(),
      currency: z.string(),
    })
    .nullable(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditListSchema = z.array(AuditEntrySchema);

const DayPointSchema = z.object({
  day: z.string(),
  count: z.number().int(),
  amountCents: z.number().int(),
});
export type DayPoint = z.infer<typeof DayPointSchema>;

/** `GET /api/stats`: what the dashboard home draws, for the caller's role. */
export const StatsSchema = z.object({
  role: z.enum(['Buyer', 'Seller', 'admin']).nullable(),
  currency: z.string(),
  /**
   * Bookings by status; a booking refunded after a dispute is `refunded`, not `paid`, and its car
   * `withdrawn` in `listingsByStatus` (decision 044).
   */
  bookingsByStatus: z.record(z.string(), z.number().int()),
  listingsByStatus: z.record(z.string(), z.number().int()),
  usersByRole: z.record(z.string(), z.number().int()),
  /** Daily sales over the last 30 days (the seller's own, or all for an admin), refunds left out. */
  sales: z.array(DayPointSchema),
  spentCents: z.number().int(),
});
export type Stats = z.infer<typeof StatsSchema>;

/** How many days `GET /api/my/listings/:id/stats` covers, today (UTC) included. */
export const CAR_STATS_DAYS = 30;

/**
 * `GET /api/my/listings/:id/stats`: what one car drew over the last 30 days (UTC, today
 * included), for its seller and admins. Every count is of that window: a save, conversation or
 * booking counts when it was made within it (a save taken back no longer counts).
 */
export const CarStatsSchema = z.object({
  /** Views: signed-in people other than its seller and admins, each once a car a UTC day. */
  views: z.number().int(),
  /** People who saved it in the window and keep it saved. */
  saves: z.number().int(),
  /** Conversations about it begun in the window (one per buyer: the questions asked). */
  conversations: z.number().int(),
  /** Bookings of it made in the window, in any state. */
  bookings: z.number().int(),
  /** Views a day, oldest first, zero days included: 30 entries; `day` is YYYY-MM-DD (UTC). */
  viewsByDay: z.array(z.object({ day: z.string(), views: z.number().int() })),
});
export type CarStats = z.infer<typeof CarStatsSchema>;
