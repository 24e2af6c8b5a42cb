import type { ListingDetail } from '@carmarket/shared';
import { lazy, type ComponentProps } from 'react';

import { LoadedWhenHydrated } from '../../../lib/use-hydrated';
import type { YourCarPanel as Panel } from './your-car-panel';

// Only a car's own seller needs the panel (its dialogs, figures and chart): buyers never load it.
const YourCarPanel = lazy(() => import('./your-car-panel'));

/** Holds the panel's first rows while its code loads, so the page below does not jump. */
function Placeholder({ className = '' }: { className?: string }) {
  return (
    <div
      aria-hidden="true"
      className={`h-40 animate-pulse rounded-box border border-base-300 bg-base-200 ${className}`}
    />
  );
}

/** Whether the signed-in person is the car's seller (who sees YourCarPanel, not Book now). */
export function isOwnCar(user: { id: string } | null | undefined, car: ListingDetail): boolean {
  return !!user && user.id === car.sellerId;
}

/** YourCarPanel, its code loaded after the car page. */
export function LazyYourCarPanel(props: ComponentProps<typeof Panel>) {
  return (
    <LoadedWhenHydrated fallback={<Placeholder className={props.className} />}>
      <YourCarPanel {...props} />
    </LoadedWhenHydrated>
  );
}
