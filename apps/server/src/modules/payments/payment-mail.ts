import { eq } from 'drizzle-orm';
import { formatMoney } from '@carmarket/shared';
import { payoutAccount, settlement, user } from '../../db/schema.ts';
import type { Db, Tx } from '../../db/client.ts';
import type { Mailer } from '../../adapters/mail.ts';
import { longDateTime } from '../../lib/mail-dates.ts';
import { notifyClosed, type ClosedBooking } from '../listings/lifecycle.ts';
import type { PaymentDeps } from './payment-deps.ts';

type Person = { email: string; name: string };

type Settlement = {
  feeCents: number;
  sellerCents: number;
  currency: string;
  releaseDueAt: Date;
};

/** The buyer's part of the receipt: where their money waits, and until when (decision 037). */
function buyerMoneyLines(origin: string, due: Settlement | undefined): string {
  if (!due) return '';
  return `\n\nWe keep your money until you have the car. Once the seller has handed it over, confirm the hand-over in My Orders: ${origin}/dashboard/orders\nIf you do not, the money is released to the seller automatically on ${longDateTime(due.releaseDueAt)}, unless you report a problem there before then.`;
}

/** The seller's: when their share is paid, and where it goes. */
function sellerMoneyLines(origin: string, due: Settlement | undefined, payoutReady: boolean) {
  if (!due) return '';
  const share = formatMoney(due.sellerCents, due.currency);
  const fee = formatMoney(due.feeCents, due.currency);
  const where = payoutReady
    ? `It goes to your payout account; see it on the Payouts page: ${origin}/dashboard/payouts`
    : `To receive it, add a payout account on the Payouts page: ${origin}/dashboard/payouts`;
  return `\n\nWe keep the payment until the hand-over. You are paid your share, ${share} (the price less our fee of ${fee}), when the buyer confirms the hand-over, or automatically on ${longDateTime(due.releaseDueAt)} unless they report a problem before then.\n${where}`;
}

/** Who sold the car and where the buyer's money waits: read in the sale's own transaction. */
export async function saleMoneyOf(tx: Db | Tx, bookingId: string, sellerId: string) {
  const [[seller], [due]] = await Promise.all([
    tx
      .select({ email: user.email, name: user.name, payoutStatus: payoutAccount.status })
      .from(user)
      .leftJoin(payoutAccount, eq(payoutAccount.userId, user.id))
      .where(eq(user.id, sellerId)),
    // Written by the payouts module's car.sold subscriber earlier in the same transaction.
    tx
      .select({
        feeCents: settlement.feeCents,
        sellerCents: settlement.sellerCents,
        currency: settlement.currency,
        releaseDueAt: settlement.releaseDueAt,
      })
      .from(settlement)
      .where(eq(settlement.bookingId, bookingId)),
  ]);
  return { seller, due };
}
export type SaleMoney = Awaited<ReturnType<typeof saleMoneyOf>>;

/** After a sale commits: the buyer's receipt, the seller's notice, and the closed bookings' news. */
export async function mailSale(
  { mailer, siteOrigin }: Pick<PaymentDeps, 'mailer' | 'siteOrigin'>,
  sale: {
    transactionId: string;
    paidAt: Date;
    carName: string;
    price: string;
    buyer: Person;
    money: SaleMoney;
    closed: ClosedBooking[];
  },
): Promise<void> {
  const { seller, due } = sale.money;
  const origin = siteOrigin();
  await Promise.allSettled([
    mailer.send({
      to: sale.buyer.email,
      subject: `Receipt: ${sale.carName}`,
      text: `Hello ${sale.buyer.name},\n\nThank you for your payment of ${sale.price} for the ${sale.carName}.\nTransaction: ${sale.transactionId}\nDate: ${longDateTime(sale.paidAt)}\n\nThe seller has been told and will be in touch to hand over the car.${buyerMoneyLines(origin, due)}`,
    }),
    seller &&
      mailer.send({
        to: seller.email,
        subject: `Sold: ${sale.carName}`,
        text: `Hello ${seller.name},\n\n${sale.buyer.name} paid ${sale.price} for your ${sale.carName} (transaction ${sale.transactionId}). Please arrange the hand-over with them (${sale.buyer.email}).${sellerMoneyLines(origin, due, seller.payoutStatus === 'ready')}`,
      }),
    notifyClosed(mailer, sale.carName, sale.closed, 'sold'),
  ]);
}

/** A charge we could not keep was refunded: the buyer is told why. */
export async function mailRefund(
  mailer: Mailer,
  refund: { buyer: Person; carName: string; reason: string },
): Promise<void> {
  await mailer
    .send({
      to: refund.buyer.email,
      subject: `Your payment for ${refund.carName} was refunded`,
      text: `Hello ${refund.buyer.name},\n\nYour payment for the ${refund.carName} went through, but ${refund.reason}, so we refunded it in full. It may take a few days to show on your statement.`,
    })
    .catch(() => {});
}
