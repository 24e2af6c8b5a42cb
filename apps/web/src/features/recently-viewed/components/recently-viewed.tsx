import { lazy, Suspense, useState, useSyncExternalStore } from 'react';

import { readRecentlyViewed, subscribeRecentlyViewed } from '../recently-viewed';

// Its own chunk, loaded only for a person signed in with a car in their list: the home page's
// up-front bytes pay for this little function alone.
const RecentlyViewedRow = lazy(() => import('./recently-viewed-row'));

const NONE: string[] = [];

/**
 * The person's recently viewed cars (home page, a search that found nothing); nothing while the
 * list is empty, and nothing in the server's render (the list is in this browser).
 */
export function RecentlyViewed({ userId, className }: { userId: string; className?: string }) {
  const ids = useSyncExternalStore(
    subscribeRecentlyViewed,
    () => readRecentlyViewed(userId),
    () => NONE,
  );
  const [cleared, setCleared] = useState(false);
  if (!ids.length && !cleared) return null;
  return (
    <Suspense fallback={null}>
      <RecentlyViewedRow
        userId={userId}
        ids={ids}
        cleared={cleared && !ids.length}
        onClear={() => setCleared(true)}
        className={className}
      />
    </Suspense>
  );
}
