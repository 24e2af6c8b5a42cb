import { and, eq, inArray, isNotNull, lte, notLike, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { account, user } from '../../db/schema.ts';
import { longDate } from '../../lib/mail-dates.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A released tombstone's address: `.invalid` is reserved, so it can never be anyone's. */
const RELEASED = '@deleted.invalid';

/**
 * When a deleted account's address becomes free: the start of the (UTC) day after the hold ends,
 * so the date a message names is the whole truth (decision 012).
 */
export function addressFreeFrom(deletedAt: Date, holdDays: number): Date {
  const end = deletedAt.getTime() + holdDays * DAY_MS;
  return new Date(Math.ceil(end / DAY_MS) * DAY_MS);
}

/** What signing in to a deleted account says (only after the right password). */
export function deletedAccountSignInMessage(deletedAt: Date, holdDays: number): string {
  return `This account was deleted on ${longDate(deletedAt)}. Its email address can be used for a new account from ${longDate(addressFreeFrom(deletedAt, holdDays))}.`;
}

/** What registering with a deleted account's address says while it is held. */
export function deletedAccountSignUpMessage(deletedAt: Date, holdDays: number): string {
  return `An account with this email was deleted on ${longDate(deletedAt)}. The address can be used for a new account from ${longDate(addressFreeFrom(deletedAt, holdDays))}.`;
}

/**
 * Frees the addresses of accounts deleted more than `holdDays` ago (only `email`'s when given):
 * the row stays for the records (bookings, payments, audit) under an address nobody can have,
 * and its password and Google link go, so nobody can sign in to it again. Answers how many.
 */
export async function releaseDeletedEmails(
  db: Db,
  holdDays: number,
  email?: string,
  now = new Date(),
): Promise<number> {
  // Free from the start of a day (addressFreeFrom): deleted at most holdDays before today began.
  const cutoff = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - holdDays * DAY_MS);
  return db.transaction(async (tx) => {
    const released = await tx
      .update(user)
      .set({ email: sql`'deleted-' || ${user.id} || ${RELEASED}` })
      .where(
        and(
          isNotNull(user.deletedAt),
          lte(user.deletedAt, cutoff),
          notLike(user.email, `%${RELEASED}`),
          email === undefined ? undefined : eq(sql`lower(${user.email})`, email.toLowerCase()),
        ),
      )
      .returning({ id: user.id });
    if (released.length === 0) return 0;
    await tx.delete(account).where(
      inArray(
        account.userId,
        released.map((row) => row.id),
      ),
    );
    return released.length;
  });
}

/**
 * The deletion time of the account that still holds `email`, after freeing it if its hold is
 * over; null when no deleted account holds it.
 */
export async function heldByDeletedAccount(
  db: Db,
  email: string,
  holdDays: number,
): Promise<Date | null> {
  await releaseDeletedEmails(db, holdDays, email);
  const [held] = await db
    .select({ deletedAt: user.deletedAt })
    .from(user)
    .where(and(eq(sql`lower(${user.email})`, email.toLowerCase()), isNotNull(user.deletedAt)));
  return held?.deletedAt ?? null;
}
