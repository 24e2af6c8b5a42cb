import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ComponentProps } from 'react';

import { useHydrated } from '../../../lib/use-hydrated';
import { hasRole, useSession } from '../../auth';
import type { RemoveCarButton as Button } from './remove-car-button';

// The dialog and the schema that checks its reason (zod) load only for admins, after the car.
const RemoveCarButton = lazy(() => import('./remove-car-button'));

/** RemoveCarButton for admins only, its code loaded after the page around it. */
export function LazyRemoveCarButton(props: Omit<ComponentProps<typeof Button>, 'queryClient'>) {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  if (!hasRole(user?.roles, 'admin') || !hydrated) return null;
  return (
    <Suspense fallback={null}>
      <RemoveCarButton {...props} queryClient={queryClient} />
    </Suspense>
  );
}
