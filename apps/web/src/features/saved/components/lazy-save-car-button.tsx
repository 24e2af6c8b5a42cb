import { holdsRole } from '@carmarket/shared';
import { lazy, type ComponentProps } from 'react';

import { LoadedWhenHydrated } from '../../../lib/use-hydrated';
import { useSession } from '../../auth';
import type { SaveCarButton as Button } from './save-car-button';

// The heart's code (the saved cars query, the toggle and its toasts) loads after the car it is
// for, so a car page or a page of cars shows without waiting for it.
const SaveCarButton = lazy(() =>
  import('./save-car-button').then((module) => ({ default: module.SaveCarButton })),
);

/** Holds the room of the labelled button while it loads, so Book now beside it does not move. */
function LabelledPlaceholder() {
  return (
    <span aria-hidden="true" className="button button-outline invisible">
      <span className="size-6" />
      Save
    </span>
  );
}

/** SaveCarButton, loaded after the page around it; for buyers only, as the button itself. */
export function LazySaveCarButton(props: ComponentProps<typeof Button>) {
  const { user } = useSession();
  // Checked here too, so that no one else loads its code.
  if (!holdsRole(user?.roles, 'Buyer')) return null;
  return (
    <LoadedWhenHydrated fallback={props.look === 'labelled' ? <LabelledPlaceholder /> : null}>
      <SaveCarButton {...props} />
    </LoadedWhenHydrated>
  );
}
