import { lazy, Suspense, type ComponentProps } from 'react';

import type { MessageSellerButton as Button } from './message-seller-button';

// Its dialog and the conversation query load with the orders, not with the dashboard's menu,
// which imports this feature's index too.
const MessageSellerButton = lazy(() =>
  import('./message-seller-button').then((module) => ({ default: module.MessageSellerButton })),
);

/** MessageSellerButton, loaded when a paid booking first shows it. */
export function LazyMessageSellerButton(props: ComponentProps<typeof Button>) {
  return (
    <Suspense fallback={<span className="inline-block h-8 w-40" aria-hidden="true" />}>
      <MessageSellerButton {...props} />
    </Suspense>
  );
}
