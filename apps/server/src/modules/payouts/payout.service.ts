import { sql, type SQL } from 'drizzle-orm';
import { queryRows } from '../../db/client.ts';
import { queueMail } from '../mail/mail-queue.ts';
import { recordMovement } from './ledger.ts';
import { payoutSentMail } from './payout-mail.ts';
import type { PayoutDeps } from './payout-deps.ts';

/** Payouts claimed at a time by one run. */
const BATCH = 50;
/**
 * How long a payout claimed as `sending` belongs to the process that claimed it: longer than the
 * provider's slowest answer (Stripe's client: 20 s a try, three tries). One still `sending` after
 * that was left by a process that died (or failed): any process asks again, with the same key.
 */
const SENDING_LEASE = sql`interval '2 minutes'`;

type Only = { sellerId?: string; bookingId?: string };

interface ClaimedPayout {
  id: string;
  booking_id: string;
  seller_id: string;
  amount_cents: string | number;
  currency: string;
  account_id: string;
}

/** The filters of `only` on a table that has `booking_id` and `seller_id`, as SQL. */
function narrowed(alias: SQL, only: Only): SQL {
  const parts = [sql`true`];
  if (only.sellerId) parts.push(sql`${alias}.seller_id = ${only.sellerId}`);
  if (only.bookingId) parts.push(sql`${alias}.booking_id = ${only.bookingId}`);
  return sql.join(parts, sql` and `);
}

/**
 * Sends the payouts that are due: released bookings of sellers with a ready payout account, and
 * payouts a crash left `sending`. `only` narrows it to one seller or booking (after a hand-over).
 * Safe to run from any process, any number of times. Answers how many were paid.
 */
export async function sendDuePayouts(deps: PayoutDeps, only: Only = {}): Promise<number> {
  await refreshWaitingAccounts(deps, only);
  let paid = 0;
  // Those a crash (or a failed call) left first, then the new ones, batch by batch.
  for (const claim of [claimLeftSending, claimNew]) {
    for (;;) {
      const claimed = await claim(deps, only);
      for (const payout of claimed) if (await send(deps, payout)) paid += 1;
      if (claimed.length < BATCH) break;
    }
  }
  return paid;
}

/**
 * Asks the provider about the accounts still onboarding of sellers who are owed a payout, once
 * each: those it now says can receive payouts become `ready`.
 */
async function refreshWaitingAccounts(deps: PayoutDeps, only: Only): Promise<void> {
  const waiting = await queryRows<{ user_id: string; account_id: string }>(
    deps.db,
    sql`select a.user_id, a.account_id from payout_account a
        where a.status = 'onboarding' and a.provider = ${deps.gateway.provider}
          and exists (select 1 from settlement s
            where s.seller_id = a.user_id and s.state = 'released' and ${narrowed(sql`s`, only)}
              and not exists (select 1 from payout p where p.booking_id = s.booking_id))`,
  );
  for (const account of waiting) {
    try {
      await markReadyIfSo(deps, account.user_id, account.account_id);
    } catch (error) {
      deps.log.warn({ err: error, account: account.account_id }, 'payout account check failed');
    }
  }
}

/** Asks the provider whether the account can receive payouts; records it. Answers whether ready. */
export async function markReadyIfSo(
  deps: PayoutDeps,
  userId: string,
  accountId: string,
): Promise<boolean> {
  if ((await deps.gateway.payouts.accountReady(accountId)) !== true) return false;
  await deps.db.execute(
    sql`update payout_account set status = 'ready', updated_at = now()
        where user_id = ${userId} and account_id = ${accountId} and status = 'onboarding'`,
  );
  return true;
}

/**
 * Claims payouts for released bookings that have none, of sellers whose account is ready: the
 * row inserted as `sending` is the claim (one per booking), so of two processes only the one
 * whose insert went in sends it.
 */
function claimNew(deps: PayoutDeps, only: Only): Promise<ClaimedPayout[]> {
  return queryRows<ClaimedPayout>(
    deps.db,
    sql`insert into payout (booking_id, seller_id, amount_cents, currency, provider, account_id)
        select s.booking_id, s.seller_id, s.seller_cents, s.currency, a.provider, a.account_id
        from settlement s
        join payout_account a on a.user_id = s.seller_id and a.status = 'ready'
          and a.provider = ${deps.gateway.provider}
        where s.state = 'released' and ${narrowed(sql`s`, only)}
          and not exists (select 1 from payout p where p.booking_id = s.booking_id)
        order by s.released_at
        limit ${BATCH}
        on conflict (booking_id) do nothing
        returning id, booking_id, seller_id, amount_cents, currency, account_id`,
  );
}

/**
 * Claims payouts left `sending` past their lease (a process died mid-call, or the call failed):
 * claiming renews the lease, and SKIP LOCKED keeps two processes off the same rows.
 */
function claimLeftSending(deps: PayoutDeps, only: Only): Promise<ClaimedPayout[]> {
  return queryRows<ClaimedPayout>(
    deps.db,
    sql`update payout set updated_at = now()
        where id in (
          select p.id from payout p
          where p.status = 'sending' and p.provider = ${deps.gateway.provider}
            and p.updated_at < now() - ${SENDING_LEASE} and ${narrowed(sql`p`, only)}
          order by p.created_at
          limit ${BATCH}
          for update skip locked)
        returning id, booking_id, seller_id, amount_cents, currency, account_id`,
  );
}

/**
 * Asks the provider for the transfer (the booking's key: asked again, it answers the first
 * transfer and moves nothing more), then records it paid with its ledger movement and the
 * seller's mail in one transaction. A failed call leaves the payout `sending` for a later run.
 */
async function send(deps: PayoutDeps, payout: ClaimedPayout): Promise<boolean> {
  const amountCents = Number(payout.amount_cents);
  let transferId: string;
  try {
    ({ transferId } = await deps.gateway.payouts.transfer({
      accountId: payout.account_id,
      amountCents,
      currency: payout.currency,
      bookingId: payout.booking_id,
      idempotencyKey: `payout-${payout.booking_id}`,
    }));
  } catch (error) {
    deps.log.warn(
      { err: error, bookingId: payout.booking_id },
      'payout transfer failed; it will be tried again',
    );
    return false;
  }
  const paid = await deps.db.transaction(async (tx) => {
    const [done] = await queryRows<{ id: string }>(
      tx,
      sql`update payout set status = 'paid', transfer_id = ${transferId}, paid_at = now(),
            updated_at = now()
          where id = ${payout.id} and status = 'sending'
          returning id`,
    );
    if (!done) return false;
    await recordMovement(tx, {
      bookingId: payout.booking_id,
      movement: 'payout',
      currency: payout.currency,
      lines: [
        { account: 'seller', amountCents, sellerId: payout.seller_id },
        { account: 'cash', amountCents: -amountCents },
      ],
    });
    const mail = await payoutSentMail(tx, deps, { ...payout, amountCents, transferId });
    if (mail) await queueMail(tx, mail);
    return true;
  });
  if (paid) deps.mail.kick();
  return paid;
}
