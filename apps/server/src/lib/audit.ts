import type { Db, Tx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

/** Records who did what to whom; `actorId` null means the system (webhooks, the sweeper). */
export async function audit(
  db: Db | Tx,
  entry: {
    actorId: string | null;
    action: string;
    targetType: string;
    targetId: string | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(auditLog).values({ ...entry, details: entry.details ?? {} });
}
