import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { formatMoney, type DisputeOutcome } from '@carmarket/shared';
import type { Db, Tx } from '../../db/client.ts';
import { booking, listing, payoutAccount, user } from '../../db/schema.ts';
import type { MailMessage } from '../../adapters/mail.ts';

/*
 * The mail of hand-over and disputes (decision 037), queued in the transaction of the step it
 * tells of and sent after it commits. Both sides hear of every step; admins, of a new dispute.
 */

type Person = { email: string; name: string };

/** Who a booking's mail goes to; a side whose account was deleted gets none. */
export interface Parties {
  carName: string;
  buyer: Person | null;
  seller: Person | null;
  /** The seller has a payout account payouts can go to. */
  payoutReady: boolean;
}

/** A settlement's figures, as the mail tells them. */
export interface Split {
  priceCents: number;
  feeCents: number;
  sellerCents: number;
  currency: string;
}

const buyerAccount = alias(user, 'buyer_account');
const sellerAccount = alias(user, 'seller_account');

/** The parties of these bookings, by booking id. */
export async function partiesOf(db: Db | Tx, bookingIds: string[]): Promise<Map<string, Parties>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await db
    .select({
      bookingId: booking.id,
      carName: listing.name,
      buyerEmail: buyerAccount.email,
      buyerName: buyerAccount.name,
      sellerEmail: sellerAccount.email,
      sellerName: sellerAccount.name,
      payoutStatus: payoutAccount.status,
    })
    .from(booking)
    .innerJoin(listing, eq(listing.id, booking.listingId))
    .leftJoin(
      buyerAccount,
      and(eq(buyerAccount.id, booking.buyerId), isNull(buyerAccount.deletedAt)),
    )
    .leftJoin(
      sellerAccount,
      and(eq(sellerAccount.id, listing.sellerId), isNull(sellerAccount.deletedAt)),
    )
    .leftJoin(payoutAccount, eq(payoutAccount.userId, listing.sellerId))
    .where(inArray(booking.id, bookingIds));
  return new Map(
    rows.map((row) => [
      row.bookingId,
      {
        carName: row.carName,
        buyer: row.buyerEmail ? { email: row.buyerEmail, name: row.buyerName! } : null,
        seller: row.sellerEmail ? { email: row.sellerEmail, name: row.sellerName! } : null,
        payoutReady: row.payoutStatus === 'ready',
      },
    ]),
  );
}

/** The live admin accounts (not deleted): who is told of a new dispute. */
export async function liveAdmins(db: Db | Tx): Promise<Person[]> {
  return db
    .select({ email: user.email, name: user.name })
    .from(user)
    .where(and(sql`${user.roles} @> array['admin']::text[]`, isNull(user.deletedAt)))
    .orderBy(user.email);
}

const money = (cents: number, split: Split) => formatMoney(cents, split.currency);

/** What the seller is told of their share once it is released to them. */
function shareReleased(parties: Parties, split: Split, siteOrigin: string): string {
  const share = `Your share, ${money(split.sellerCents, split)} (${money(split.priceCents, split)} less the platform's fee of ${money(split.feeCents, split)}), is released to you.`;
  const next = parties.payoutReady
    ? 'It is on its way to your payout account.'
    : `Add a payout account to be paid: ${siteOrigin}/dashboard/payouts\nUntil you do, it waits for you in your balance.`;
  return `${share}\n${next}`;
}

/** Both sides' mail, leaving out a side without an account. */
function both(parties: Parties, buyer: Omit<MailMessage, 'to'>, seller: Omit<MailMessage, 'to'>) {
  const mail: MailMessage[] = [];
  if (parties.buyer) mail.push({ to: parties.buyer.email, ...buyer });
  if (parties.seller) mail.push({ to: parties.seller.email, ...seller });
  return mail;
}

/** The buyer confirmed the hand-over: the money goes to the seller. */
export function handoverConfirmedMail(
  parties: Parties,
  split: Split,
  siteOrigin: string,
): MailMessage[] {
  const buyerName = parties.buyer?.name ?? 'The buyer';
  return both(
    parties,
    {
      subject: `Hand-over confirmed: ${parties.carName}`,
      text: `Hello ${parties.buyer?.name},\n\nThank you for confirming that you received the ${parties.carName}. Your payment of ${money(split.priceCents, split)} now goes to the seller.`,
    },
    {
      subject: `Hand-over confirmed: ${parties.carName}`,
      text: `Hello ${parties.seller?.name},\n\n${buyerName} confirmed the hand-over of your ${parties.carName}.\n${shareReleased(parties, split, siteOrigin)}`,
    },
  );
}

/** The hand-over days passed without a dispute: the money went to the seller by itself. */
export function releasedByTimerMail(
  parties: Parties,
  split: Split,
  siteOrigin: string,
): MailMessage[] {
  return both(
    parties,
    {
      subject: `Payment released to the seller: ${parties.carName}`,
      text: `Hello ${parties.buyer?.name},\n\nThe days to report a problem with the ${parties.carName} have passed without one, so your payment of ${money(split.priceCents, split)} went to the seller.`,
    },
    {
      subject: `Payment released: ${parties.carName}`,
      text: `Hello ${parties.seller?.name},\n\nThe hand-over days of your ${parties.carName} have passed without a problem reported.\n${shareReleased(parties, split, siteOrigin)}`,
    },
  );
}

/** The buyer reported a problem: the money stays held until an admin decides. */
export function disputeOpenedMail(parties: Parties, reason: string): MailMessage[] {
  return both(
    parties,
    {
      subject: `We got your report: ${parties.carName}`,
      text: `Hello ${parties.buyer?.name},\n\nWe got your report about the ${parties.carName}:\n\n"${reason}"\n\nYour payment stays held, not paid to the seller, until an administrator decides. We will mail you when they do.`,
    },
    {
      subject: `A problem was reported: ${parties.carName}`,
      text: `Hello ${parties.seller?.name},\n\n${parties.buyer?.name ?? 'The buyer'} reported a problem with the ${parties.carName}:\n\n"${reason}"\n\nThe payment stays held until an administrator decides whether it goes to you or back to the buyer. We will mail you when they do.`,
    },
  );
}

/**
 * Each admin's mail of a new dispute, so nobody has to watch the Disputes page: the car, the
 * booking, the buyer's reason (admins may read it) and where to rule. A dispute has no deadline:
 * the money stays held until an admin rules.
 */
export function disputeOpenedAdminMail(
  admins: Person[],
  parties: Parties,
  opened: { bookingId: string; reason: string; priceCents: number; currency: string },
  siteOrigin: string,
): MailMessage[] {
  const buyerName = parties.buyer?.name ?? 'The buyer';
  const sellerName = parties.seller?.name ?? 'a deleted account';
  return admins.map((admin) => ({
    to: admin.email,
    subject: `Dispute opened: ${parties.carName}`,
    text: [
      `Hello ${admin.name},`,
      '',
      `${buyerName} reported a problem with the ${parties.carName}, sold by ${sellerName}.`,
      `Booking: ${opened.bookingId}, paid ${formatMoney(opened.priceCents, opened.currency)}`,
      '',
      `The buyer's reason:`,
      `"${opened.reason}"`,
      '',
      'There is no deadline: the payment stays held, not paid to the seller, until an administrator releases it to the seller or refunds the buyer.',
      `Rule on it on the Disputes page: ${siteOrigin}/dashboard/disputes`,
    ].join('\n'),
  }));
}

/** An admin ruled on a dispute: the money went to the seller, or back to the buyer's card. */
export function disputeResolvedMail(
  parties: Parties,
  split: Split,
  ruling: { outcome: DisputeOutcome; note: string },
  siteOrigin: string,
): MailMessage[] {
  const note = `The administrator's note: "${ruling.note}"`;
  if (ruling.outcome === 'release') {
    return both(
      parties,
      {
        subject: `Your report was decided: ${parties.carName}`,
        text: `Hello ${parties.buyer?.name},\n\nAn administrator looked into your report about the ${parties.carName} and released your payment of ${money(split.priceCents, split)} to the seller.\n${note}`,
      },
      {
        subject: `Report decided in your favour: ${parties.carName}`,
        text: `Hello ${parties.seller?.name},\n\nAn administrator looked into the problem reported with your ${parties.carName} and released the payment to you.\n${note}\n\n${shareReleased(parties, split, siteOrigin)}`,
      },
    );
  }
  return both(
    parties,
    {
      subject: `Refunded: ${parties.carName}`,
      text: `Hello ${parties.buyer?.name},\n\nAn administrator looked into your report about the ${parties.carName} and refunded your payment of ${money(split.priceCents, split)} to your card. It may take a few days to show on your statement. The car went back to its seller.\n${note}`,
    },
    {
      subject: `Payment refunded to the buyer: ${parties.carName}`,
      text: `Hello ${parties.seller?.name},\n\nAn administrator looked into the problem reported with your ${parties.carName} and refunded the buyer's payment of ${money(split.priceCents, split)}, so nothing will be paid to you for it.\n${note}\n\nThe car is yours again: it is withdrawn from sale, and you can put it back on sale from My cars: ${siteOrigin}/dashboard/my-products`,
    },
  );
}
