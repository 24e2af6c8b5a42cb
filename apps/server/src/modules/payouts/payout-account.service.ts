import { eq, sql } from 'drizzle-orm';
import type { PayoutAccount } from '@carmarket/shared';
import { payoutAccount } from '../../db/schema.ts';
import { AppError } from '../../lib/errors.ts';
import { formatWait, orGiveBack, spend } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { PayoutDeps } from './payout-deps.ts';
import { markReadyIfSo, sendDuePayouts } from './payout.service.ts';

/** Calls of `POST /api/my/payout-account` a seller may make an hour: each asks the provider. */
const ACCOUNT_LINKS_PER_HOUR = 10;

type AccountRow = typeof payoutAccount.$inferSelect;

/**
 * A call to the payment provider for a seller's request: its failure is logged and answered as
 * the provider being unavailable, never with the provider's own words (they may name our keys).
 */
async function askProvider<T>(deps: PayoutDeps, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    deps.log.error({ err: error }, `payment provider: ${what} failed`);
    throw new AppError(
      503,
      'unavailable',
      'The payment provider did not answer; try again shortly.',
      { retryAfterSeconds: 5 },
    );
  }
}

async function accountOf(deps: PayoutDeps, userId: string): Promise<AccountRow | undefined> {
  const [row] = await deps.db.select().from(payoutAccount).where(eq(payoutAccount.userId, userId));
  return row;
}

/**
 * Sends what the seller is owed once their account became ready; a failure is the sweep's to
 * retry, never the seller's request's.
 */
async function payOwed(deps: PayoutDeps, sellerId: string): Promise<void> {
  try {
    await sendDuePayouts(deps, { sellerId });
  } catch (error) {
    deps.log.error({ err: error, sellerId }, 'payouts after the account became ready failed');
  }
}

/**
 * Where the seller's payouts go, as the Payouts page shows it. An account still onboarding is
 * asked about again (the seller comes back to the page from the provider's onboarding), at most
 * once a minute, and what they are owed goes out once it is ready.
 */
export async function payoutAccountFor(
  deps: PayoutDeps,
  actor: SessionUser,
): Promise<PayoutAccount> {
  const row = await accountOf(deps, actor.id);
  const provider = deps.gateway.provider;
  if (!row || row.provider !== provider) return { status: 'none', provider };
  if (row.status === 'ready') return { status: 'ready', provider };
  const ready = await markReadyIfSo(deps, actor.id, row.accountId, 'when-due').catch(
    (error: unknown) => {
      deps.log.warn({ err: error, account: row.accountId }, 'payout account check failed');
      return false;
    },
  );
  if (ready) await payOwed(deps, actor.id);
  return { status: ready ? 'ready' : 'onboarding', provider };
}

/**
 * Adds the seller's payout account, or finds the one they began: created once at the provider
 * (the seller's idempotency key, so a retry or a race answers the same account), kept as
 * `onboarding`, or `ready` when the provider says so at once (the sandbox's are). Answers the
 * provider's onboarding link; what the seller is owed goes out when the account is ready.
 * Each call counts against the seller's hour: it costs calls to a paid provider.
 */
export async function startPayoutAccount(
  deps: PayoutDeps,
  actor: SessionUser,
): Promise<{ url: string }> {
  const giveBack = await spend(
    deps.counters,
    [
      {
        key: `payout-account:${actor.id}`,
        max: ACCOUNT_LINKS_PER_HOUR,
        windowMs: 3_600_000,
        message: (seconds) =>
          `You can open the payout account set-up ${ACCOUNT_LINKS_PER_HOUR} times an hour. Try again in ${formatWait(seconds)}.`,
      },
    ],
    { unavailable: 'Payout accounts are unavailable for a moment.' },
  );
  const { accountId, ready } = await orGiveBack(giveBack, () => ensureAccount(deps, actor));
  const origin = deps.siteOrigin();
  const url = await askProvider(deps, 'onboarding link', () =>
    deps.gateway.payouts.onboardingLink({
      accountId,
      returnUrl: `${origin}/dashboard/payouts?account=done`,
      refreshUrl: `${origin}/dashboard/payouts?account=retry`,
    }),
  );
  if (ready) await payOwed(deps, actor.id);
  return { url };
}

/** The seller's account at this provider, made and recorded if they have none. */
async function ensureAccount(
  deps: PayoutDeps,
  actor: SessionUser,
): Promise<{ accountId: string; ready: boolean }> {
  const provider = deps.gateway.provider;
  let row = await accountOf(deps, actor.id);
  if (!row || row.provider !== provider) {
    const accountId = await askProvider(deps, 'account creation', () =>
      deps.gateway.payouts.createAccount({
        userId: actor.id,
        email: actor.email,
        idempotencyKey: `payout-account-${actor.id}`,
      }),
    );
    // One account per seller: a racing request made the same one (the same key); an account
    // at another provider (the site changed provider) is replaced by this one.
    await deps.db
      .insert(payoutAccount)
      .values({ userId: actor.id, provider, accountId, status: 'onboarding' })
      .onConflictDoUpdate({
        target: payoutAccount.userId,
        set: { provider, accountId, status: 'onboarding', updatedAt: new Date() },
        setWhere: sql`${payoutAccount.provider} <> ${provider}`,
      });
    row = (await accountOf(deps, actor.id))!;
  }
  const { accountId } = row;
  if (row.status === 'ready') return { accountId, ready: true };
  const ready = await askProvider(deps, 'account check', () =>
    markReadyIfSo(deps, actor.id, accountId, 'now'),
  );
  return { accountId, ready };
}
