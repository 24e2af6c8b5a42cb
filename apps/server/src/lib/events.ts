import type { Tx } from '../db/client.ts';

/*
 * Named domain events (decision 026). A core module (listings, bookings, users) publishes what
 * happened inside its own transaction; a feature (saved, messages) or another core module
 * subscribes at start-up (app.ts) and does its part in that same transaction, so the news is
 * kept exactly when the change is, and a failing subscriber rolls the change back. The core
 * thereby knows no feature: it names the event, not who hears it.
 */

/** The fields of a car whose change `car.edited` reports. */
export const EDITED_CAR_FIELDS = [
  'make',
  'model',
  'year',
  'mileageKm',
  'bodyType',
  'fuel',
  'transmission',
  'vin',
] as const;
export type EditedCarField = (typeof EDITED_CAR_FIELDS)[number];

/** Every event, and what it carries. */
export interface DomainEventMap {
  /** A seller listed a car. */
  'car.listed': { carId: string };
  /** A car's asking price was changed by its seller, with the car locked. */
  'car.repriced': { carId: string; oldPriceCents: number; newPriceCents: number };
  /**
   * Its seller changed what the car is (make, model, year, mileage, body type, fuel, gearbox or
   * VIN), with the car locked; `changed` names the fields whose values differ. A new price is
   * `car.repriced`.
   */
  'car.edited': { carId: string; changed: EditedCarField[] };
  /**
   * A booking of the car was paid: the car is sold. The buyer's money is held until hand-over
   * (payouts subscribes, decision 037).
   */
  'car.sold': {
    carId: string;
    bookingId: string;
    sellerId: string;
    /** What the buyer paid, in minor units. */
    priceCents: number;
    currency: string;
    paidAt: Date;
  };
  /** Its seller put a withdrawn car back on sale. */
  'car.relisted': { carId: string };
  /**
   * Cars left the site for good: an admin removed one, or their seller's account was deleted
   * (the seller's withdrawn cars with them).
   */
  'cars.removed': { carIds: string[] };
  /**
   * An admin deleted a category; its cars went to `movedTo` (null when it had none), in the same
   * transaction.
   */
  'category.deleted': { categoryId: string; movedTo: string | null };
  /** A buyer booked a car. */
  'booking.created': {
    bookingId: string;
    carId: string;
    buyer: { id: string; name: string };
    priceCents: number;
    currency: string;
    location: string;
  };
  /**
   * A person's account is being deleted (users/account-deletion.ts). Subscribers fill in
   * `outcome`, which the audit line and the person's goodbye mail report.
   */
  'account.deleted': {
    userId: string;
    outcome: { carsRemoved: number; bookingsCancelled: number };
  };
}

export type DomainEventName = keyof DomainEventMap;

/** Work a subscriber leaves for after the commit (live events, mail); it never undoes it. */
export type AfterCommit = () => unknown;

/**
 * The events whose publishers run the work subscribers leave for after the commit. The car's
 * events come from inside the lifecycle's steps, whose callers own the transaction: their
 * subscribers only write in it.
 */
type WithAfterCommit = 'booking.created' | 'account.deleted';

export type EventHandler<Name extends DomainEventName> = (
  tx: Tx,
  event: DomainEventMap[Name],
) => Promise<Name extends WithAfterCommit ? AfterCommit | void : void>;

/** One app's subscriptions (each app has its own: tests run several in one process). */
export class DomainEvents {
  private readonly handlers = new Map<
    DomainEventName,
    Array<{ subscriber: string; handle: EventHandler<never> }>
  >();

  /**
   * Adds `subscriber`'s handler of `name`. Handlers run in the order they subscribed: app.ts's
   * order is the lock order where several touch one transaction (account deletion).
   */
  subscribe<Name extends DomainEventName>(
    name: Name,
    subscriber: string,
    handle: EventHandler<Name>,
  ): void {
    const list = this.handlers.get(name) ?? [];
    list.push({ subscriber, handle: handle as EventHandler<never> });
    this.handlers.set(name, list);
  }

  /** Who hears `name`, in order (for tests and the decision record). */
  subscribers(name: DomainEventName): string[] {
    return (this.handlers.get(name) ?? []).map((entry) => entry.subscriber);
  }

  /**
   * Runs every handler of `name` in `tx`, one after another. Answers the work they left for
   * after the commit: the caller runs it once its transaction has committed, never before.
   */
  async publish<Name extends DomainEventName>(
    tx: Tx,
    name: Name,
    event: DomainEventMap[Name],
  ): Promise<() => Promise<void>> {
    const later: AfterCommit[] = [];
    for (const { handle } of this.handlers.get(name) ?? []) {
      const after = await (handle as EventHandler<Name>)(tx, event);
      if (after) later.push(after);
    }
    // Committed work is not undone by a failure after it (a mail server down): each part runs.
    return async () => {
      await Promise.allSettled(later.map(async (after) => after()));
    };
  }
}
