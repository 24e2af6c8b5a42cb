import type { ListingCard } from '@carmarket/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';

import { api } from '../../../lib/api-client';
import { useNearView } from '../../../lib/use-near-view';

/**
 * The home page's Advertised section (`GET /api/advertised`), below the categories. It asks for
 * the cars once its place comes within a screen of view, and renders nothing until the list has a
 * car in it; only then does it load its code (and the heart's, for buyers). So the home page's
 * up-front bytes pay for this little function alone. Link is handed over instead of imported
 * there: with that import, Vite would list the page's stylesheet as the chunk's dependency, which
 * costs bytes here.
 */
export function AdvertisedSection() {
  const [place, near] = useNearView<HTMLDivElement>();
  const { data } = useQuery({
    queryKey: ['advertised'], // this feature's one key
    // Loaded again whenever the home page shows it, as the categories are (get-categories.ts).
    staleTime: 0,
    enabled: near,
    queryFn: async () => {
      const cars = await api.get<ListingCard[]>('/advertised');
      return cars.length ? { cars, ...(await import('./advertised-cars')) } : null;
    },
  });
  return (
    <>
      <div ref={place} />
      {data && <data.default cars={data.cars} Link={Link} />}
    </>
  );
}
