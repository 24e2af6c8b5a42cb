import type { DomainEvents, EditedCarField } from '../../lib/events.ts';
import { forgetCars, rateCars } from './price-guide.service.ts';

/** The fields of a car its price guide is drawn from (its group, age and mileage). */
const GUIDED_BY: ReadonlySet<EditedCarField> = new Set([
  'make',
  'model',
  'year',
  'mileageKm',
  'bodyType',
]);

/**
 * What the price guide hears of the core's changes (decision 026), each in the transaction of the
 * change: a car listed, repriced, changed or back on sale is rated from the newest fits at once;
 * a car sold or removed loses its rating. A car withdrawn keeps its row until the next refresh,
 * and no card shows it (the card reads the rating of cars on sale only).
 */
export function subscribePriceGuide(events: DomainEvents): void {
  events.subscribe('car.listed', 'price-guide', (tx, { carId }) => rateCars(tx, [carId]));
  events.subscribe('car.repriced', 'price-guide', (tx, { carId }) => rateCars(tx, [carId]));
  events.subscribe('car.edited', 'price-guide', async (tx, { carId, changed }) => {
    if (changed.some((field) => GUIDED_BY.has(field))) await rateCars(tx, [carId]);
  });
  events.subscribe('car.relisted', 'price-guide', (tx, { carId }) => rateCars(tx, [carId]));
  events.subscribe('car.sold', 'price-guide', (tx, { carId }) => forgetCars(tx, [carId]));
  events.subscribe('cars.removed', 'price-guide', (tx, { carIds }) => forgetCars(tx, carIds));
}
