import { holdsRole, type ListingCard } from '@carmarket/shared';

import { useSession } from '../../auth';
import { useSavedCarIds } from '../api/get-saved-cars';
import { useSetCarSaved } from '../api/set-car-saved';
import { carTitle } from '../car-title';
import { HeartIcon } from './heart-icon';
import './save-car-button.css';

const looks = {
  // Round, over the corner of a card's photo (save-car-button.css).
  icon: 'card-heart',
  // Beside Book now on a car's page.
  labelled: 'button button-outline aria-pressed:bg-primary-soft',
};

/**
 * The heart: saves the car for a signed-in buyer, or forgets it, in one click (nothing for anyone
 * else). A toggle button: its name stays "Save <car>" and aria-pressed says whether it is saved.
 */
export function SaveCarButton({
  car,
  look = 'icon',
}: {
  car: ListingCard;
  look?: keyof typeof looks;
}) {
  const { user } = useSession();
  const isBuyer = holdsRole(user?.roles, 'Buyer');
  const { data: savedIds } = useSavedCarIds(isBuyer);
  const setSaved = useSetCarSaved();
  if (!isBuyer) return null;

  const saved = savedIds?.has(car._id) ?? false;
  // A car no longer on sale can be forgotten, not saved.
  if (!saved && car.status !== 'available' && car.status !== 'reserved') return null;
  return (
    <button
      type="button"
      className={looks[look]}
      aria-pressed={saved}
      aria-label={`Save ${carTitle(car)}`}
      onClick={() => setSaved.mutate({ car, saved: !saved })}
    >
      <HeartIcon filled={saved} className={`size-6 ${saved ? 'text-error' : 'text-primary'}`} />
      {look === 'labelled' && 'Save'}
    </button>
  );
}
