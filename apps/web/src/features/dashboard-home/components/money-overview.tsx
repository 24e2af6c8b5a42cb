import { formatMoney } from '@carmarket/shared';
import { Link } from 'react-router';

import { Figure, Figures } from '../../../components/ui/figures';
import { PageState } from '../../../components/ui/page-state';
import { useMoneySummary } from '../api/get-money';

/** The admins' money figures: what is held, earned, paid out and refunded; open disputes. */
export function MoneyOverview() {
  const money = useMoneySummary();
  return (
    <section aria-labelledby="money-title" aria-busy={money.isPending || undefined}>
      <h3 id="money-title" className="text-lg font-bold">
        Money
      </h3>
      <div className="mt-3">
        <PageState
          query={money}
          loading="Loading the money figures…"
          skeleton={
            <div aria-hidden="true" className="h-28 animate-pulse rounded-box bg-base-200" />
          }
          what="the money figures"
        >
          {(data) => {
            const amount = (cents: number) => formatMoney(cents, data.currency);
            return (
              <Figures columns="sm:grid-cols-3">
                <Figure
                  label="Money held"
                  value={amount(data.held)}
                  hint="Paid, waiting for hand-over"
                />
                <Figure
                  label="Owed to sellers"
                  value={amount(data.owedToSellers)}
                  hint="Handed over, not sent yet"
                />
                <Figure label="Paid out to sellers" value={amount(data.paidOut)} />
                <Figure label="Fees earned" value={amount(data.feesEarned)} />
                <Figure label="Refunded" value={amount(data.refunded)} />
                <Figure
                  label="Open disputes"
                  value={data.openDisputes}
                  hint={
                    <Link to="/dashboard/disputes" className="text-link">
                      {data.openDisputes > 0 ? 'Rule on them' : 'See disputes'}
                    </Link>
                  }
                />
              </Figures>
            );
          }}
        </PageState>
      </div>
    </section>
  );
}

export default MoneyOverview;
