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
 * Throws the 429 that stops a buyer taking a new hold on `car` from `ip` now, if one does:
 * 1. a car whose hold ended without a sale (cancelled, lapsed, its payment canceled) stays free
 *    for others for `holdMinutes` after that end, so holds cannot be recycled;
 * 2. at most `perDay` different cars in any 24 hours (holding one car again counts it once);
 * 3. at most `perIp` live holds taken from one address, however many accounts ask.
 * The caller holds the buyer's and the address's hold locks, so no two requests count at once.
 */
export async function checkHoldLimits(
  tx: Tx,
  request: {
    buyerId: string;
    car: { id: string; name: string };
    ip: string;
    now: Date;
    holdMinutes: number;
    limits: HoldLimits;
  },
): Promise<void> {
  const { buyerId, car, ip, now, holdMinutes, limits } = request;
  const nowMs = now.getTime();
  // A buyer's holds of the last day are few (the day's limit bounds them): judged here, not in SQL.
  const recent = await tx
    .select({
      listingId: carHold.listingId,
      heldAt: carHold.heldAt,
      expiresAt: carHold.expiresAt,
      endedAt: carHold.endedAt,
    })
    .from(carHold)
    .where(and(eq(carHold.buyerId, buyerId), gt(carHold.heldAt, new Date(nowMs - DAY_MS))));

  const ends = recent
    .filter((hold) => hold.listingId === car.id)
    .map((hold) =>
      Math.min((hold.endedAt ?? hold.expiresAt).getTime(), hold.expiresAt.getTime(), nowMs),
    );
  const waitUntil = Math.max(...ends) + holdMinutes * 60_000;
  if (ends.length > 0 && waitUntil > nowMs) {
    throw tooManyRequests(
      waitUntil,
      (seconds) =>
        `You let the ${car.name} go a short while ago, so other buyers have a turn at it first. You can hold it again in ${formatWait(seconds)}.`,
    );
  }

  // Each other car held in the last 24 hours, by its latest hold: it counts for a day after it.
  const lastHeld = new Map<string, number>();
  for (const hold of recent) {
    if (hold.listingId === car.id) continue;
    lastHeld.set(
      hold.listingId,
      Math.max(lastHeld.get(hold.listingId) ?? 0, hold.heldAt.getTime()),
    );
  }
  if (ends.length === 0 && lastHeld.size >= limits.perDay) {
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
