import { ADMIN_EXPORT_TABLES, type AdminExportTable } from '@carmarket/shared';

import { API_BASE } from '../../../lib/api-client';

const LABELS: Record<AdminExportTable, string> = {
  users: 'People',
  cars: 'Cars',
  bookings: 'Bookings',
  payouts: 'Payouts',
};

/**
 * Whole tables as CSV for a spreadsheet (`GET /api/admin/exports/<table>.csv`, decision 042):
 * plain links, so the browser streams the file to disk however large it is; the session cookie
 * goes with them.
 */
export function ExportLinks() {
  return (
    <nav aria-labelledby="exports-title" className="mt-4 text-sm">
      <span id="exports-title" className="font-semibold">
        Download as CSV:
      </span>{' '}
      {ADMIN_EXPORT_TABLES.map((table, index) => (
        <span key={table}>
          {index > 0 && ' · '}
          <a className="text-link" href={`${API_BASE}/admin/exports/${table}.csv`} download>
            {LABELS[table]}
          </a>
        </span>
      ))}
    </nav>
  );
}
