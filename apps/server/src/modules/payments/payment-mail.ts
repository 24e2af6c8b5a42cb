import { eq } from 'drizzle-orm';
import { user } from '../../db/schema.ts';
import type { Mailer } from '../../adapters/mail.ts';
import { notifyClosed, type ClosedBooking } from '../listings/lifecycle.ts';
import type { PaymentDeps } from './payment-deps.ts';

type Person = { email: string; name: string };

/** After a sale commits: the buyer's receipt, the seller's notice, and the closed bookings' news. */
export async function mailSale(
  { db, mailer }: Pick<PaymentDeps, 'db' | 'mailer'>,
  sale: {
    transactionId: string;
    paidAt: Date;
    carName: string;
    price: string;
    buyer: Person;
    sellerId: string;
    closed: ClosedBooking[];
  },
): Promise<void> {
  const [seller] = await db
    .select({ email: user.email, name: user.name })
    .from(user)
    .where(eq(user.id, sale.sellerId));
  await Promise.allSettled([
    mailer.send({
      to: sale.buyer.email,
      subject: `Receipt: ${sale.carName}`,
      text: `Hello ${sale.buyer.name},\n\nThank you for your payment of ${sale.price} for the ${sale.carName}.\nTransaction: ${sale.transactionId}\nDate: ${sale.paidAt.toISOString()}\n\nThe seller has been told and will be in touch to hand over the car.`,
    }),
    seller &&
      mailer.send({
        to: seller.email,
        subject: `Sold: ${sale.carName}`,
        text: `Hello ${seller.name},\n\n${sale.buyer.name} paid ${sale.price} for your ${sale.carName} (transaction ${sale.transactionId}). Please arrange the handover with them (${sale.buyer.email}).`,
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
