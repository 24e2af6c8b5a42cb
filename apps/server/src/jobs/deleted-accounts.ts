import type { Db } from '../db/client.ts';
import { releaseDeletedEmails } from '../modules/users/deleted-accounts.ts';
import type { Job } from './job.ts';

/**
 * Frees the addresses of accounts deleted more than DELETED_ACCOUNT_HOLD_DAYS ago (decision 012),
 * every CLEANUP_INTERVAL_MINUTES. Sign-up and sign-in free a held address on the spot; this frees
 * the rest (a Google sign-in).
 */
export function deletedAccountsJob(db: Db, holdDays: number, intervalMs: number): Job<number> {
  return {
    name: "freeing deleted accounts' addresses",
    intervalMs,
    run: () => releaseDeletedEmails(db, holdDays),
  };
}
