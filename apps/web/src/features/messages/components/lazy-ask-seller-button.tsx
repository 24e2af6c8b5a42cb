import { lazy, type ComponentProps } from 'react';

import { LoadedWhenHydrated } from '../../../lib/use-hydrated';
import { useSession } from '../../auth';
import { carActionPath, SignInFirstButton } from '../../visitors';
import type { AskSellerButton as Button } from './ask-seller-button';

// The button's code (its dialog, the conversation query) loads after the car it is for.
const AskSellerButton = lazy(() =>
  import('./ask-seller-button').then((module) => ({ default: module.AskSellerButton })),
);

/**
 * AskSellerButton, loaded after the page around it; for buyers only, as the button itself. A
 * visitor without an account (where the site lets them browse) is asked to sign in or register,
 * and comes back to the car's page with the question's dialog open (decision 028).
 */
export function LazyAskSellerButton(props: ComponentProps<typeof Button>) {
  const { user, isPending } = useSession();
  const { listing, className = '' } = props;
  if (!isPending && !user) {
    if (listing.status !== 'available' && listing.status !== 'reserved') return null;
    return (
      <div className={className}>
        <SignInFirstButton
          className="button button-outline w-full"
          title={`Ask ${listing.seller} about the ${listing.name}`}
          why="Sign in or create an account to ask: your question starts a conversation with the seller. You come back here to write it."
          next={carActionPath(listing._id, 'ask')}
        >
          Ask the seller
        </SignInFirstButton>
      </div>
    );
  }
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
