import type { DomainEvents } from '../../lib/events.ts';
import {
  forgetSavesOf,
  forgetSavesOfCars,
  moveSavedSearchesOfCategory,
  noticeBackOnSale,
  noticePriceDrop,
  noticeSold,
  queueNewCar,
} from './tracking-events.ts';

/**
 * What keep-track hears of the core's changes (decision 026), each written in the transaction of
 * the change (decision 010): the alert worker sends from what these keep.
 */
export function subscribeSaved(events: DomainEvents): void {
  events.subscribe('car.listed', 'saved', (tx, { carId }) => queueNewCar(tx, carId));
  events.subscribe('car.repriced', 'saved', (tx, change) =>
    noticePriceDrop(tx, change.carId, change.oldPriceCents, change.newPriceCents),
  );
  events.subscribe('car.sold', 'saved', (tx, { carId }) => noticeSold(tx, carId));
  events.subscribe('car.relisted', 'saved', (tx, { carId }) => noticeBackOnSale(tx, carId));
  events.subscribe('cars.removed', 'saved', (tx, { carIds }) => forgetSavesOfCars(tx, carIds));
  events.subscribe('account.deleted', 'saved', (tx, { userId }) => forgetSavesOf(tx, userId));
  events.subscribe('category.deleted', 'saved', (tx, { categoryId, movedTo }) =>
    moveSavedSearchesOfCategory(tx, categoryId, movedTo),
  );
}
