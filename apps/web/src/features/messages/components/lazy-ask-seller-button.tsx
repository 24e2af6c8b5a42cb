import { lazy, Suspense, type ComponentProps } from 'react';

import { useHydrated } from '../../../lib/use-hydrated';
import { useSession } from '../../auth';
import type { AskSellerButton as Button } from './ask-seller-button';

// The button's code (its dialog, the conversation query) loads after the car it is for.
const AskSellerButton = lazy(() =>
  import('./ask-seller-button').then((module) => ({ default: module.AskSellerButton })),
);

/** AskSellerButton, loaded after the page around it; for buyers only, as the button itself. */
export function LazyAskSellerButton(props: ComponentProps<typeof Button>) {
  const { user } = useSession();
  const hydrated = useHydrated();
  // Checked here too, so that no one else loads its code.
  if (!user?.roles.includes('Buyer') || user.id === props.listing.sellerId) return null;
  const placeholder = <div className={`h-12 ${props.className ?? ''}`} aria-hidden="true" />;
  if (!hydrated) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <AskSellerButton {...props} />
    </Suspense>
  );
}
