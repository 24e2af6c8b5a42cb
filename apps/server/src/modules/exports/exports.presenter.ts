import type { InferSelectModel } from 'drizzle-orm';
import type {
  booking,
  ledgerEntry,
  listing,
  payment,
  payout,
  savedSearch,
  session,
  user,
} from '../../db/schema.ts';
import { describeUserAgent } from '../auth/user-agent.ts';

/**
 * The shapes of a data export's files (decision 042): each picks its fields by name, so a column
 * added later (a secret, another person's data) stays out until someone adds it here. Never in
 * an export: password hashes, session tokens, provider secrets, another person's email or phone.
 */

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function presentProfile(
  row: InferSelectModel<typeof user>,
  signInMethods: Array<{ providerId: string; createdAt: Date }>,
) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified,
    phone: row.phone,
    photo: row.image,
    roles: row.roles,
    verifiedSeller: row.verified,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    signInMethods: signInMethods.map((method) => ({
      provider: method.providerId,
      since: iso(method.createdAt),
    })),
  };
}

/** A photo's file in the ZIP: `photos/<car id>/<n>-<key>`, n from 1 (the cover). */
export const photoPath = (carId: string, index: number, key: string) =>
  `photos/${carId}/${index + 1}-${key}`;

export function presentCar(row: InferSelectModel<typeof listing>, keyOf: (url: string) => string) {
  return {
    id: row.id,
    name: row.name,
    sellerName: row.sellerName,
    make: row.make,
    model: row.model,
    year: row.year,
    mileageKm: row.mileageKm,
    condition: row.condition,
    bodyType: row.bodyType,
    fuel: row.fuel,
    transmission: row.transmission,
    colour: row.colour,
    vin: row.vin,
    location: row.location,
    description: row.description,
    priceCents: row.repriceCents,
    originalPriceCents: row.orpriceCents,
    currency: row.currency,
    status: row.status,
    advertisedAt: iso(row.advertisedAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    photos: row.images.map((image, index) => ({
      file: photoPath(row.id, index, keyOf(image.url)),
      width: image.width,
      height: image.height,
    })),
  };
}

/** A booking the person made: all of it is theirs (the contact details they typed). */
export function presentBookingMade(row: InferSelectModel<typeof booking> & { carName: string }) {
  return {
    side: 'buyer' as const,
    id: row.id,
    car: { id: row.listingId, name: row.carName },
    status: row.status,
    closedReason: row.closedReason,
    priceCents: row.priceCents,
    currency: row.currency,
    yourName: row.buyerName,
    yourEmail: row.buyerEmail,
    yourPhone: row.phone,
    yourLocation: row.location,
    transactionId: row.transactionId,
    createdAt: iso(row.createdAt),
    paidAt: iso(row.paidAt),
  };
}

/** A booking of one of the person's cars: the buyer appears by the name they gave, nothing more. */
export function presentBookingOfMyCar(
  row: Pick<
    InferSelectModel<typeof booking>,
    | 'id'
    | 'listingId'
    | 'status'
    | 'closedReason'
    | 'priceCents'
    | 'currency'
    | 'buyerName'
    | 'createdAt'
    | 'paidAt'
  > & { carName: string },
) {
  return {
    side: 'seller' as const,
    id: row.id,
    car: { id: row.listingId, name: row.carName },
    status: row.status,
    closedReason: row.closedReason,
    priceCents: row.priceCents,
    currency: row.currency,
    buyerName: row.buyerName,
    createdAt: iso(row.createdAt),
    paidAt: iso(row.paidAt),
  };
}

export function presentPayment(row: InferSelectModel<typeof payment>) {
  return {
    id: row.id,
    bookingId: row.bookingId,
    provider: row.provider,
    transactionId: row.providerPaymentId,
    amountCents: row.amountCents,
    currency: row.currency,
    status: row.status,
    attempt: row.attempt,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function presentPayout(row: InferSelectModel<typeof payout>) {
  return {
    id: row.id,
    bookingId: row.bookingId,
    amountCents: row.amountCents,
    currency: row.currency,
    provider: row.provider,
    status: row.status,
    transferId: row.transferId,
    createdAt: iso(row.createdAt),
    paidAt: iso(row.paidAt),
  };
}

export function presentLedgerLine(row: InferSelectModel<typeof ledgerEntry>) {
  return {
    id: row.id,
    bookingId: row.bookingId,
    movement: row.movement,
    account: row.account,
    amountCents: row.amountCents,
    currency: row.currency,
    createdAt: iso(row.createdAt),
  };
}

/** A conversation's head; its messages follow in the file, written a page at a time. */
export function presentConversationHead(row: {
  id: string;
  listingId: string;
  carName: string;
  youAre: 'buyer' | 'seller';
  otherName: string;
  otherDeleted: boolean;
  createdAt: Date;
}) {
  return {
    id: row.id,
    car: { id: row.listingId, name: row.carName },
    youAre: row.youAre,
    // The other member's public name only, as the conversation page shows them.
    with: row.otherDeleted ? 'Deleted user' : row.otherName,
    createdAt: iso(row.createdAt),
  };
}

export function presentMessage(
  row: { seq: number; senderId: string; kind: string; body: string; createdAt: Date },
  userId: string,
) {
  return {
    from: row.senderId === userId ? ('you' as const) : ('them' as const),
    kind: row.kind,
    text: row.body,
    sentAt: iso(row.createdAt),
  };
}

export function presentSavedCar(row: {
  listingId: string;
  carName: string;
  priceAtSavingCents: number;
  createdAt: Date;
}) {
  return {
    car: { id: row.listingId, name: row.carName },
    priceWhenSavedCents: row.priceAtSavingCents,
    savedAt: iso(row.createdAt),
  };
}

export function presentSavedSearch(row: InferSelectModel<typeof savedSearch>) {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    alerts: row.alerts,
    createdAt: iso(row.createdAt),
    lastVisitedAt: iso(row.lastVisitedAt),
  };
}

/** A signed-in device: its token, which is the session, never leaves the server. */
export function presentSignInDevice(
  row: Pick<
    InferSelectModel<typeof session>,
    'userAgent' | 'ipAddress' | 'createdAt' | 'lastSeenAt' | 'expiresAt'
  >,
) {
  return {
    ...describeUserAgent(row.userAgent),
    userAgent: row.userAgent,
    ipAddress: row.ipAddress || null,
    signedInAt: iso(row.createdAt),
    lastUsedAt: iso(row.lastSeenAt),
    expiresAt: iso(row.expiresAt),
  };
}
