import { holdsRole } from '@carmarket/shared';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, type ComponentProps } from 'react';

import { LoadedWhenHydrated } from '../../../lib/use-hydrated';
import { useSession } from '../../auth';
import type { RemoveCarButton as Button } from './remove-car-button';

// The dialog and the schema that checks its reason (zod) load only for admins, after the car.
const RemoveCarButton = lazy(() => import('./remove-car-button'));

/** RemoveCarButton for admins only, its code loaded after the page around it. */
export function LazyRemoveCarButton(props: Omit<ComponentProps<typeof Button>, 'queryClient'>) {
  const { user } = useSession();
  const queryClient = useQueryClient();
  if (!holdsRole(user?.roles, 'admin')) return null;
  return (
    <LoadedWhenHydrated>
      <RemoveCarButton {...props} queryClient={queryClient} />
    </LoadedWhenHydrated>
  );
}
