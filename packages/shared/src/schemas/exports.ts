import { z } from 'zod';

/**
 * "Download my data" (`GET /api/my/data-export`, decision 042): how many exports one person may
 * ask for in a day. Each reads all their rows and photos, so the limit keeps one account from
 * keeping the server busy; three leaves room for a retry after a failed download.
 */
export const DATA_EXPORTS_PER_DAY = 3;

/** The JSON files of a data export, one per kind of record (photos are under `photos/`). */
export const DATA_EXPORT_FILES = [
  'profile.json',
  'cars.json',
  'bookings.json',
  'payments.json',
  'payouts.json',
  'ledger.json',
  'conversations.json',
  'saved-cars.json',
  'saved-searches.json',
  'sign-in-devices.json',
] as const;
export type DataExportFile = (typeof DATA_EXPORT_FILES)[number];

/** `manifest.json`, the first file of a data export: what it holds and when it was made. */
export const DataExportManifestSchema = z.object({
  exportedAt: z.string(),
  userId: z.uuid(),
  files: z.array(z.enum(DATA_EXPORT_FILES)),
  /** Where each car's photos are: `photos/<car id>/<n>-<file>`, n from 1 (the cover). */
  photos: z.string(),
});
export type DataExportManifest = z.infer<typeof DataExportManifestSchema>;

/** The tables an administrator can download as CSV (`GET /api/admin/exports/<table>.csv`). */
export const ADMIN_EXPORT_TABLES = ['users', 'cars', 'bookings', 'payouts'] as const;
export type AdminExportTable = (typeof ADMIN_EXPORT_TABLES)[number];
