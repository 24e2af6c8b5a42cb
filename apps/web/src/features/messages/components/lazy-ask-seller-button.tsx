import { lazy, type ComponentProps } from 'react';

import { LoadedWhenHydrated } from '../../../lib/use-hydrated';
import { useSession } from '../../auth';
import type { AskSellerButton as Button } from './ask-seller-button';

// The button's code (its dialog, the conversation query) loads after the car it is for.
const AskSellerButton = lazy(() =>
  import('./ask-seller-button').then((module) => ({ default: module.AskSellerButton })),
);

/** AskSellerButton, loaded after the page around it; for buyers only, as the button itself. */
export function LazyAskSellerButton(props: ComponentProps<typeof Button>) {
  const { user } = useSession();
  // Checked here too, so that no one else loads its code.
  if (!user?.roles.includes('Buyer') || user.id === props.listing.sellerId) return null;
  return (
    <LoadedWhenHydrated
      fallback={<div className={`h-12 ${props.className ?? ''}`} aria-hidden="true" />}
    >
      <AskSellerButton {...props} />
    </LoadedWhenHydrated>
  );
}
