import { holdsRole, type ListingCard } from '@carmarket/shared';
import { useEffect, useRef } from 'react';

import { useSession } from '../../auth';
import { useSavedCarIds } from '../api/get-saved-cars';
import { useSetCarSaved } from '../api/set-car-saved';
import { carTitle } from '../car-title';
import { HeartIcon } from './heart-icon';
import { looks } from './save-car-looks';
import './save-car-button.css';

/**
 * The heart: saves the car for a signed-in buyer, or forgets it, in one click (nothing for anyone
 * else). A toggle button: its name stays "Save <car>" and aria-pressed says whether it is saved.
 */
export function SaveCarButton({
  car,
  look = 'icon',
  finish,
}: {
  car: ListingCard;
  look?: keyof typeof looks;
  /**
   * Given when a visitor pressed Save before they had an account, then signed in or registered
   * and came back (decision 028): the car is saved once their saved cars are known (unless it is
   * already), and `finish` is called.
   */
  finish?: (() => void) | undefined;
}) {
  const { user } = useSession();
  const isBuyer = holdsRole(user?.roles, 'Buyer');
  const { data: savedIds } = useSavedCarIds(isBuyer);
  const setSaved = useSetCarSaved();
  const { mutate } = setSaved;
  const toFinish = useRef(finish);
  useEffect(() => {
    const finished = toFinish.current;
    if (!finished || !isBuyer || !savedIds) return;
    toFinish.current = undefined;
    const onSale = car.status === 'available' || car.status === 'reserved';
    if (onSale && !savedIds.has(car._id)) mutate({ car, saved: true });
    finished();
  }, [isBuyer, savedIds, car, mutate]);
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
