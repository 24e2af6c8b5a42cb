import { z } from 'zod';
import { textSchema } from '../text.ts';

/** One user in the admin tables. `verify` is the spec's string "true" once an admin verified them. */
export const AdminUserSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['Buyer', 'Seller', 'admin']).nullable(),
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

export const AuditEntrySchema = z.object({
  _id: z.uuid(),
  action: z.string(),
  actor: z.object({ _id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
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
  bookingsByStatus: z.record(z.string(), z.number().int()),
  listingsByStatus: z.record(z.string(), z.number().int()),
  usersByRole: z.record(z.string(), z.number().int()),
  /** Daily sales over the last 30 days (the seller's own, or all for an admin). */
  sales: z.array(DayPointSchema),
  spentCents: z.number().int(),
});
export type Stats = z.infer<typeof StatsSchema>;
