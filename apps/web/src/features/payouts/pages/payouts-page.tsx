import { formatMoney, type Balance, type PayoutAccount, type Payout } from '@carmarket/shared';
import { useEffect, useState, type ReactNode } from 'react';

import { Figure } from '../../../components/ui/figures';
import { FormAlert } from '../../../components/ui/form-alert';
import { LoadMore } from '../../../components/ui/load-more';
import { EmptyState, PageState } from '../../../components/ui/page-state';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { usePage } from '../../../lib/page';
import { useQueryParams } from '../../../lib/use-query-params';
import { useBalance } from '../api/balance';
import { usePayoutAccount, useStartPayoutAccount } from '../api/payout-account';
import { usePayouts } from '../api/payouts';

/** Where money ready to pay out goes: it is sent only to a payout account that is set up. */
const PAYABLE_HINT: Record<PayoutAccount['status'] | 'unknown', string> = {
  ready: 'Yours since hand-over or a ruling; on its way to your payout account.',
  onboarding:
    'Yours since hand-over or a ruling; it waits for your payout account. Finish setting it up to be paid.',
  none: 'Yours since hand-over or a ruling; it waits for a payout account. Add a payout account to be paid.',
  unknown: 'Yours since hand-over or a ruling; not paid out yet.',
};

function BalanceFigures({
  balance,
  account,
}: {
  balance: Balance;
  /** Undefined while it loads (or when it could not). */
  account: PayoutAccount | undefined;
}) {
  const money = (cents: number) => formatMoney(cents, balance.currency);
  return (
    <dl className="grid gap-3 sm:grid-cols-3 sm:gap-4" data-testid="balance">
      <Figure
        label="Pending hand-over"
        value={money(balance.pending)}
        hint="Paid by buyers; yours after hand-over, or after a ruling if a buyer reported a problem."
      />
      <Figure
        label="Ready to pay out"
        value={money(balance.payable)}
        hint={PAYABLE_HINT[account?.status ?? 'unknown']}
      />
      <Figure label="Paid out" value={money(balance.paidOut)} hint="Sent to your payout account." />
    </dl>
  );
}

/** The payout account's state, and the button that adds it or finishes setting it up. */
function AccountPanel({ account, payable }: { account: PayoutAccount; payable: number }) {
  const start = useStartPayoutAccount();
  // Busy until the browser has left for the provider's pages, not only while asking.
  const leaving = start.isPending || start.isSuccess;
  const button = (label: string) => (
    <button
      type="button"
      // Wraps on a phone rather than widen the page: "Finish setting up your payout account".
      className="button button-primary h-auto min-h-11 py-2 whitespace-normal sm:justify-self-start"
      onClick={() => start.mutate()}
      disabled={leaving}
      aria-busy={leaving || undefined}
    >
      {leaving && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {leaving ? 'Opening…' : label}
    </button>
  );

  let body: ReactNode;
  if (account.status === 'ready') {
    body = <p>Payouts go to your account as each hand-over is confirmed.</p>;
  } else if (account.status === 'onboarding') {
    body = (
      <>
        <p>You began adding your payout account; a few details are still missing.</p>
        {button('Finish setting up your payout account')}
      </>
    );
  } else {
    body = (
      <>
        <p>
          Add the bank account your payouts go to. You are sent to our payment provider to do it.
        </p>
        {button('Add payout account')}
      </>
    );
  }

  return (
    <div className="grid gap-4">
      {account.status !== 'ready' && payable > 0 && (
        <p
          className="rounded-box border border-warning bg-warning/10 p-4"
          data-testid="payout-account-notice"
        >
          <strong>Money is ready for you, but we have nowhere to send it.</strong> Add your payout
          account and it goes out at once.
        </p>
      )}
      <FormAlert>{start.isError ? errorMessage(start.error) : null}</FormAlert>
      <div className="grid gap-3 rounded-box border border-base-300 bg-base-100 p-4 sm:p-5">
        {body}
      </div>
    </div>
  );
}

const PAYOUT_STATUS: Record<Payout['status'], string> = { sending: 'Sending', paid: 'Paid' };

function PayoutDate({ payout }: { payout: Payout }) {
  const at = payout.paidAt ?? payout.createdAt;
  return <time dateTime={at}>{formatDate(at)}</time>;
}

function PayoutList({ payouts }: { payouts: Payout[] }) {
  const money = (payout: Payout, cents: number) => formatMoney(cents, payout.currency);
  return (
    <>
      <div className="hidden overflow-x-auto rounded-box border border-base-300 [contain:inline-size] sm:block">
        <table className="table [&_thead]:text-muted">
          <caption className="sr-only">Your payouts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Car</th>
              <th scope="col">Amount</th>
              <th scope="col">Our fee</th>
              <th scope="col">Status</th>
              <th scope="col">Date</th>
            </tr>
          </thead>
          <tbody>
            {payouts.map((payout) => (
              <tr key={payout._id} data-testid="payout-row">
                <th scope="row" className="font-semibold">
                  {payout.carName}
                </th>
                <td className="whitespace-nowrap">{money(payout, payout.amount)}</td>
                <td className="whitespace-nowrap text-muted">{money(payout, payout.feeCents)}</td>
                <td>{PAYOUT_STATUS[payout.status]}</td>
                <td className="whitespace-nowrap">
                  <PayoutDate payout={payout} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="grid gap-3 sm:hidden">
        {payouts.map((payout) => (
          <li
            key={payout._id}
            className="rounded-box border border-base-300 bg-base-100 p-4"
            data-testid="payout-card"
          >
            <p className="font-semibold">{payout.carName}</p>
            <p className="mt-1 text-lg font-bold">{money(payout, payout.amount)}</p>
            <p className="mt-1 text-sm text-muted">
              {PAYOUT_STATUS[payout.status]} · <PayoutDate payout={payout} /> · our fee{' '}
              {money(payout, payout.feeCents)}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Why there is no payout yet: none released, or released money waiting for the account. */
function noPayoutsWords(account: PayoutAccount | undefined, payable: number): string {
  if (payable > 0 && account?.status === 'none') {
    return 'Money is ready for you, but there is no payout account to send it to. Add your payout account above and it is paid out and shows here.';
  }
  if (payable > 0 && account?.status === 'onboarding') {
    return 'Money is ready for you. Finish setting up your payout account above and it is paid out and shows here.';
  }
  return 'Once a buyer confirms they have a car you sold, your share is paid out and shows here.';
}

function Payouts({ account, payable }: { account: PayoutAccount | undefined; payable: number }) {
  const payouts = usePayouts();
  return (
    <PageState
      query={payouts}
      loading="Loading your payouts…"
      what="your payouts"
      isEmpty={(data) => data.pages[0]?.items.length === 0}
      empty={<EmptyState title="No payouts yet" description={noPayoutsWords(account, payable)} />}
    >
      {(data) => (
        <>
          <PayoutList payouts={data.pages.flatMap((page) => page.items)} />
          <LoadMore
            hasMore={payouts.hasNextPage}
            loading={payouts.isFetchingNextPage}
            onMore={() => void payouts.fetchNextPage()}
            noun="payouts"
          />
        </>
      )}
    </PageState>
  );
}

/** How long the page waits, back from the provider's pages, for the account to be ready. */
const WATCH_FOR_MS = 90_000;

/** Payouts (`/dashboard/payouts`, sellers): the seller's money, payout account and payouts. */
export function PayoutsPage() {
  usePage({ title: 'Payouts' });
  const balance = useBalance();
  const [params, setParams] = useQueryParams();
  // Back from the provider's pages: say so once, then drop it from the address (a reload, a
  // bookmark or Back must not say it again); the words stay while the page does.
  const [back] = useState(() => params.get('account'));
  // Back having finished: the account is asked after until the provider says it is ready, for a
  // minute and a half at most (the server asks the provider once a minute).
  const [watching, setWatching] = useState(back === 'done');
  useEffect(() => {
    if (!watching) return;
    const timer = setTimeout(() => setWatching(false), WATCH_FOR_MS);
    return () => clearTimeout(timer);
  }, [watching]);
  const account = usePayoutAccount({ watch: watching });
  const checking = watching && account.data?.status === 'onboarding';
  const hasBack = params.has('account');
  useEffect(() => {
    if (!hasBack) return;
    setParams(
      (next) => {
        next.delete('account');
        return next;
      },
      { replace: true },
    );
  }, [hasBack, setParams]);

  return (
    <div className="grid max-w-5xl gap-10">
      <div>
        <p className="section-eyebrow">Selling</p>
        <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">Payouts</h1>
        <p className="mt-3 max-w-2xl text-lg text-muted">
          A buyer&rsquo;s money is held until they confirm they have the car, or until a few days
          pass without a problem reported. Then your share, less our fee, is paid out.
        </p>
      </div>
      {back === 'done' && account.data?.status === 'ready' && (
        <FormAlert kind="success">
          Your payout account is set up. Money ready for you is sent to it.
        </FormAlert>
      )}
      {/* Always there, so a screen reader hears the words when they come; no room taken without. */}
      <p role="status" className={checking ? 'text-muted' : 'sr-only'}>
        {checking ? 'Asking our payment provider whether your payout account is ready…' : ''}
      </p>
      {/* The provider's link had expired or was used already: a new one is a click away. */}
      {back === 'retry' && account.data?.status === 'onboarding' && (
        <FormAlert>
          That set-up link has expired. Choose Finish setting up your payout account below for a new
          one.
        </FormAlert>
      )}

      <section aria-labelledby="balance-title">
        <h2 id="balance-title" className="text-2xl font-bold tracking-tight">
          Your balance
        </h2>
        <div className="mt-4">
          <PageState query={balance} loading="Loading your balance…" what="your balance">
            {(data) => <BalanceFigures balance={data} account={account.data} />}
          </PageState>
        </div>
      </section>

      <section aria-labelledby="account-title">
        <h2 id="account-title" className="text-2xl font-bold tracking-tight">
          Payout account
        </h2>
        <div className="mt-4">
          <PageState
            query={account}
            loading="Loading your payout account…"
            what="your payout account"
          >
            {(data) => <AccountPanel account={data} payable={balance.data?.payable ?? 0} />}
          </PageState>
        </div>
      </section>

      <section aria-labelledby="payouts-title">
        <h2 id="payouts-title" className="text-2xl font-bold tracking-tight">
          Your payouts
        </h2>
        <div className="mt-4">
          <Payouts account={account.data} payable={balance.data?.payable ?? 0} />
        </div>
      </section>
    </div>
  );
}
