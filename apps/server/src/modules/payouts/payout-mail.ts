import { and, eq, isNull } from 'drizzle-orm';
import { formatMoney } from '@carmarket/shared';
import type { Tx } from '../../db/client.ts';
import { booking, listing, settlement, user } from '../../db/schema.ts';
import type { MailMessage } from '../../adapters/mail.ts';
import type { PayoutDeps } from './payout-deps.ts';

/**
 * The seller's mail for a payout sent (decision 037), read in the transaction that records it;
 * none when the seller's account was deleted.
 */
export async function payoutSentMail(
  tx: Tx,
  deps: Pick<PayoutDeps, 'siteOrigin'>,
  payout: {
    booking_id: string;
    seller_id: string;
    amountCents: number;
    currency: string;
    transferId: string;
  },
): Promise<MailMessage | null> {
  const [row] = await tx
    .select({
      email: user.email,
      name: user.name,
      carName: listing.name,
      priceCents: settlement.priceCents,
      feeCents: settlement.feeCents,
    })
    .from(booking)
    .innerJoin(listing, eq(listing.id, booking.listingId))
    .innerJoin(settlement, eq(settlement.bookingId, booking.id))
    .innerJoin(user, and(eq(user.id, payout.seller_id), isNull(user.deletedAt)))
    .where(eq(booking.id, payout.booking_id));
  if (!row) return null;
  const money = (cents: number) => formatMoney(cents, payout.currency);
  return {
    to: row.email,
    subject: `Payout sent: ${money(payout.amountCents)} for ${row.carName}`,
    text: [
      `Hello ${row.name},`,
      '',
      `We sent ${money(payout.amountCents)} to your payout account for the ${row.carName}: its price of ${money(row.priceCents)} less the platform's fee of ${money(row.feeCents)}.`,
      `Transfer: ${payout.transferId}`,
      '',
      `Your balance and payouts: ${deps.siteOrigin()}/dashboard/payouts`,
    ].join('\n'),
  };
}
