import { lazy, type ComponentProps } from 'react';

import { LoadedWhenHydrated } from '../../../lib/use-hydrated';
import { useSession } from '../../auth';
import { LazySaveCarButton } from './lazy-save-car-button';

// Its code loads after the page, as the buyer's heart does (lazy-save-car-button.tsx).
const SignInToSaveButton = lazy(() =>
  import('./sign-in-to-save-button').then((module) => ({ default: module.SignInToSaveButton })),
);

/**
 * The heart on the pages a visitor may browse (search, category, car): a buyer's heart, or for a
 * visitor without an account a heart that asks them to sign in or register and brings them back
 * to the car's page, which saves it (decision 028). Not in the feature's index: the home page
 * imports that, and its cards show no heart to visitors.
 */
export function SaveOrSignInButton(props: ComponentProps<typeof LazySaveCarButton>) {
  const { user, isPending } = useSession();
  const { car, look } = props;
  if (isPending || user) return <LazySaveCarButton {...props} />;
  // A car no longer on sale cannot be saved.
  if (car.status !== 'available' && car.status !== 'reserved') return null;
  return (
    <LoadedWhenHydrated
      fallback={
        look === 'labelled' ? (
          // Holds the labelled button's room while it loads, as the buyer's heart does.
          <span aria-hidden="true" className="button button-outline invisible">
            <span className="size-6" />
            Save
          </span>
        ) : null
      }
    >
      <SignInToSaveButton car={car} look={look} />
    </LoadedWhenHydrated>
  );
}
