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
 * provider's slowest answer (Stripe's client: two look-ups of 10 s, then the transfer's three
 * tries of 20 s). The lease is taken again just before each payout's call, not once for a batch,
 * so a call in flight is never raced. One still `sending` after that was left by a process that
 * died, or whose call failed: it waits out the lease, then any process asks again, same key.
 */
const SENDING_LEASE = sql`interval '2 minutes'`;
/** How often an onboarding account is asked about, at most: each ask is a provider's call. */
const ACCOUNT_CHECK_EVERY = sql`interval '60 seconds'`;

type Only = { sellerId?: string; bookingId?: string };

interface ClaimedPayout {
  id: string;
  booking_id: string;
  seller_id: string;
  amount_cents: string | number;
  currency: string;
  account_id: string;
  /** The lease's time as this process took it, as the database printed it (to the microsecond). */
  claimed_at: string;
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
          and a.updated_at < now() - ${ACCOUNT_CHECK_EVERY}
          and exists (select 1 from settlement s
            where s.seller_id = a.user_id and s.state = 'released' and ${narrowed(sql`s`, only)}
              and not exists (select 1 from payout p where p.booking_id = s.booking_id))`,
  );
  for (const account of waiting) {
    try {
      await markReadyIfSo(deps, account.user_id, account.account_id, 'when-due');
    } catch (error) {
      deps.log.warn({ err: error, account: account.account_id }, 'payout account check failed');
    }
  }
}

/**
 * Asks the provider whether the account can receive payouts; records it. Answers whether ready.
 * `'when-due'` asks only when the account was not asked about in the last minute (the Payouts
 * page and the sweep would otherwise call the provider each time); `'now'` asks regardless (the
 * set-up's call, already limited per hour). Either way the ask is stamped on `updated_at`.
 */
export async function markReadyIfSo(
  deps: PayoutDeps,
  userId: string,
  accountId: string,
  when: 'now' | 'when-due',
): Promise<boolean> {
  const [due] = await queryRows<{ user_id: string }>(
    deps.db,
    sql`update payout_account set updated_at = now()
        where user_id = ${userId} and account_id = ${accountId} and status = 'onboarding'
          and ${when === 'now' ? sql`true` : sql`updated_at < now() - ${ACCOUNT_CHECK_EVERY}`}
        returning user_id`,
  );
  if (!due) return false;
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
        returning id, booking_id, seller_id, amount_cents, currency, account_id,
          updated_at::text as claimed_at`,
  );
}

/**
 * Claims payouts left `sending` past their lease (a process died mid-call, or the call failed),
 * those untouched longest first, so one that keeps failing does not come before the others:
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
          order by p.updated_at
          limit ${BATCH}
          for update skip locked)
        returning id, booking_id, seller_id, amount_cents, currency, account_id,
          updated_at::text as claimed_at`,
  );
}

/**
 * Takes the payout's lease again, from the time this process claimed it at: false when another
 * process took it meanwhile (this one's batch outlasted the lease), which then sends it.
 * Answers the new lease's time.
 */
async function renewLease(
  deps: PayoutDeps,
  payout: ClaimedPayout,
): Promise<{ claimed_at: string; transaction_id: string | null } | undefined> {
  const [renewed] = await queryRows<{ claimed_at: string; transaction_id: string | null }>(
    deps.db,
    sql`update payout set updated_at = now()
        where id = ${payout.id} and status = 'sending'
          and updated_at = cast(${payout.claimed_at} as timestamptz)
        returning updated_at::text as claimed_at,
          (select b.transaction_id from booking b where b.id = payout.booking_id) as transaction_id`,
  );
  return renewed;
}

/**
 * Asks the provider for the transfer (the booking's key: asked again, it answers the first
 * transfer and moves nothing more), then records it paid with its ledger movement and the
 * seller's mail in one transaction. The lease is taken again just before the call. A failed call
 * leaves the payout `sending`, its lease started afresh: it waits out the lease, and then comes
 * after the payouts untouched longer.
 */
async function send(deps: PayoutDeps, payout: ClaimedPayout): Promise<boolean> {
  const amountCents = Number(payout.amount_cents);
  const lease = await renewLease(deps, payout);
  if (!lease) return false;
  let transferId: string;
  try {
    ({ transferId } = await deps.gateway.payouts.transfer({
      accountId: payout.account_id,
      amountCents,
      currency: payout.currency,
      bookingId: payout.booking_id,
      paymentIntentId: lease.transaction_id ?? '',
      idempotencyKey: `payout-${payout.booking_id}`,
    }));
  } catch (error) {
    deps.metrics.payouts.inc({ outcome: 'failed' });
    deps.log.warn(
      { err: error, bookingId: payout.booking_id },
      'payout transfer failed; it will be tried again after its lease',
    );
    await deps.db.execute(
      sql`update payout set updated_at = now()
          where id = ${payout.id} and status = 'sending'
            and updated_at = cast(${lease.claimed_at} as timestamptz)`,
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
  if (paid) {
    deps.metrics.payouts.inc({ outcome: 'paid' });
    deps.mail.kick();
  }
  return paid;
}
