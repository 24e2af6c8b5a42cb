import type { ListingCard } from '@carmarket/shared';

import { carActionPath, SignInFirstButton } from '../../visitors';
import { carTitle } from '../car-title';
import { HeartIcon } from './heart-icon';
import { looks } from './save-car-looks';
import './save-car-button.css';

/**
 * The heart for a visitor without an account (where the site lets them browse): it asks them to
 * sign in or register, and brings them back to the car's page, which saves the car (decision 028).
 * Same name as a buyer's heart, so it reads the same to a screen reader.
 */
export function SignInToSaveButton({
  car,
  look = 'icon',
}: {
  car: ListingCard;
  look?: keyof typeof looks;
}) {
  return (
    <SignInFirstButton
      className={looks[look]}
      label={`Save ${carTitle(car)}`}
      title="Save this car"
      why="Sign in or create an account to keep it in your saved cars; we tell you when its price drops. You come back here with the car saved."
      next={carActionPath(car._id, 'save')}
    >
      <HeartIcon filled={false} className="size-6 text-primary" />
      {look === 'labelled' && 'Save'}
    </SignInFirstButton>
  );
}
