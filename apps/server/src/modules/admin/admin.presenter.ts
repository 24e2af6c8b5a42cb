import { firstRole, type AdminUser, type AuditEntry } from '@carmarket/shared';
import type { listAudit, listUsers } from './admin.service.ts';

type UserRow = Awaited<ReturnType<typeof listUsers>>['rows'][number];
type AuditRow = Awaited<ReturnType<typeof listAudit>>[number];

/** A person in the admin's user lists; `verify: "true"` is the spec's wire form of verified. */
export function presentAdminUser(row: UserRow): AdminUser {
  return {
    _id: row.id,
    name: row.name,
    email: row.email,
    role: firstRole(row.roles),
    roles: row.roles,
    ...(row.verified ? { verify: 'true' as const } : {}),
    createdAt: row.createdAt.toISOString(),
  };
}

/** One line of the audit log; the system (sweeper, webhooks) acts with no actor. */
export function presentAuditEntry(row: AuditRow): AuditEntry {
  return {
    _id: row.id,
    action: row.action,
    actor: row.actorId ? { _id: row.actorId, name: row.actorName!, email: row.actorEmail! } : null,
    targetType: row.targetType,
    targetId: row.targetId,
    details: row.details,
    booking: row.bookingId
      ? {
          _id: row.bookingId,
          listingId: row.bookingListingId!,
          carName: row.bookingCarName!,
          currency: row.bookingCurrency!,
        }
      : null,
    createdAt: row.createdAt.toISOString(),
  };
}
