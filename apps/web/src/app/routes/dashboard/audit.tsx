import { AuditPage } from '../../../features/admin/pages/audit-page';

/** `/dashboard/audit`, admin: who did what to whom, and when. */
export default function AuditRoute() {
  return <AuditPage />;
}
