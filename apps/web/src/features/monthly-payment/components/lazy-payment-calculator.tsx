import { lazy, Suspense } from 'react';

import { useNearView } from '../../../lib/use-near-view';

const PaymentCalculator = lazy(() => import('./payment-calculator'));

/**
 * The car page's payment estimate: its code is asked for once its place comes within a screen of
 * view (the car page does not load it up front); the place keeps its height meanwhile.
 */
export function LazyPaymentCalculator({
  priceCents,
  currency,
  className = '',
}: {
  priceCents: number;
  currency: string;
  className?: string;
}) {
  const [place, near] = useNearView<HTMLDivElement>();
  const holder = <div className="min-h-72" aria-hidden="true" />;
  return (
    <div ref={place} className={className} data-testid="payment-estimate">
      {near ? (
        <Suspense fallback={holder}>
          <PaymentCalculator priceCents={priceCents} currency={currency} />
        </Suspense>
      ) : (
        holder
      )}
    </div>
  );
}
