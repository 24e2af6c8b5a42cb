import { and, count, eq, gt, isNull, min } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { carHold, listing } from '../../db/schema.ts';
import { formatWait, tooManyRequests } from '../../lib/rate-limit.ts';
import { liveHoldWhere } from '../listings/lifecycle.ts';

/** How many holds may be taken (issue 29): cars per buyer a day, live holds per address. */
export interface HoldLimits {
  perDay: number;
  perIp: number;
}

const DAY_MS = 86_400_000;

/**
 * Throws the 429 that stops a buyer taking a new hold on `car` from `ip` and `browser` now, if
 * one does:
 * 1. a turn for others (decision 047): a car whose hold ended without a sale (cancelled, lapsed,
 *    its payment canceled) goes, for `holdMinutes` after that end, only to a buyer new to it:
 *    one who has not held it in the last 24 hours, from an address and a browser that have not
 *    either; so accounts cannot pass a car between them, and whoever else wants it gets a turn;
 * 2. at most `perDay` different cars in any 24 hours (holding one car again counts it once);
 * 3. at most `perIp` live holds taken from one address, however many accounts ask.
 * The caller holds the buyer's and the address's hold locks, so no two requests count at once
 * for 2 and 3; and the car's row (lockPayable), so two tied accounts asking from two addresses
 * at once are judged one after the other for 1.
 */
export async function checkHoldLimits(
  tx: Tx,
  request: {
    buyerId: string;
    car: { id: string; name: string };
    ip: string;
    browser: string;
    now: Date;
    holdMinutes: number;
    limits: HoldLimits;
  },
): Promise<void> {
  const { buyerId, car, ip, browser, now, holdMinutes, limits } = request;
  const nowMs = now.getTime();
  const dayAgo = new Date(nowMs - DAY_MS);
  // The car's holds of the last day (car_hold_listing_idx) and the buyer's (car_hold_buyer_idx):
  // both are few (a hold lasts minutes, and the day's limit bounds a buyer's), judged here.
  const carHolds = await tx
    .select({
      buyerId: carHold.buyerId,
      ip: carHold.ip,
      browser: carHold.browser,
      expiresAt: carHold.expiresAt,
      endedAt: carHold.endedAt,
    })
    .from(carHold)
    .where(and(eq(carHold.listingId, car.id), gt(carHold.heldAt, dayAgo)));

  // When the car's last hold ended; one still live is another buyer's (the caller refused that).
  const endOf = (hold: (typeof carHolds)[number]) =>
    Math.min((hold.endedAt ?? hold.expiresAt).getTime(), hold.expiresAt.getTime(), nowMs);
  const turn = holdMinutes * 60_000;
  const waitUntil = Math.max(...carHolds.map(endOf)) + turn;
  if (carHolds.length > 0 && waitUntil > nowMs) {
    const own = carHolds.filter((hold) => hold.buyerId === buyerId);
    const linked = carHolds.some((hold) => hold.ip === ip || hold.browser === browser);
    if (own.length > 0 || linked) {
      const lately = own.some((hold) => endOf(hold) + turn > nowMs);
      throw tooManyRequests(waitUntil, (seconds) =>
        own.length === 0
          ? `The ${car.name} was held from your network or this browser a short while ago, so other buyers have a turn at it first. You can hold it in ${formatWait(seconds)}.`
          : lately
            ? `You let the ${car.name} go a short while ago, so other buyers have a turn at it first. You can hold it again in ${formatWait(seconds)}.`
            : `You held the ${car.name} earlier today and another buyer has just let it go, so buyers new to it have a turn first. You can hold it again in ${formatWait(seconds)}.`,
      );
    }
  }

  const recent = await tx
    .select({ listingId: carHold.listingId, heldAt: carHold.heldAt })
    .from(carHold)
    .where(and(eq(carHold.buyerId, buyerId), gt(carHold.heldAt, dayAgo)));
  const heldThisCar = carHolds.some((hold) => hold.buyerId === buyerId);

  // Each other car held in the last 24 hours, by its latest hold: it counts for a day after it.
  const lastHeld = new Map<string, number>();
  for (const hold of recent) {
    if (hold.listingId === car.id) continue;
    lastHeld.set(
      hold.listingId,
      Math.max(lastHeld.get(hold.listingId) ?? 0, hold.heldAt.getTime()),
    );
  }
  if (!heldThisCar && lastHeld.size >= limits.perDay) {
    const oldest = [...lastHeld.values()].sort((a, b) => a - b);
    throw tooManyRequests(
      oldest[lastHeld.size - limits.perDay]! + DAY_MS,
      (seconds) =>
        `You have held ${limits.perDay === 1 ? '1 car' : `${limits.perDay} cars`} in the last 24 hours, the most we allow in a day. You can hold another in ${formatWait(seconds)}.`,
    );
  }

  // Live holds from this address: the car's own row says whether a hold still stands.
  const [live] = await tx
    .select({ holds: count(), firstEnd: min(carHold.expiresAt) })
    .from(carHold)
    .innerJoin(listing, eq(listing.id, carHold.listingId))
    .where(
      and(
        eq(carHold.ip, ip),
        isNull(carHold.endedAt),
        liveHoldWhere(now),
        eq(listing.holdBookingId, carHold.bookingId),
        eq(listing.holdExpiresAt, carHold.expiresAt),
      ),
    );
  if (live && live.holds >= limits.perIp && live.firstEnd) {
    throw tooManyRequests(
      new Date(live.firstEnd).getTime(),
      (seconds) =>
        `Your network already holds ${limits.perIp} cars while their payments go through, the most at once. You can hold this one in ${formatWait(seconds)}, or sooner if one of those is paid or cancelled.`,
    );
  }
}
