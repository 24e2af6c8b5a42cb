import { z } from 'zod';
import { BOOKING_CLOSE_REASONS, BOOKING_STATUSES, LISTING_STATUSES } from '../enums.ts';
import { textSchema } from '../text.ts';
import { HandoverSchema } from './payouts.ts';

/** 7 to 20 digits, with an optional leading + and spaces, dashes or parentheses between. */
export const PhoneSchema = z
  .string()
  .trim()
  .min(1, 'Phone is required')
  .max(40, 'Phone is too long')
  .regex(/^\+?[\d\s()-]+$/, 'Phone may contain digits, spaces, dashes, parentheses and a leading +')
  .refine((phone) => {
    const digits = phone.replace(/\D/g, '').length;
    return digits >= 7 && digits <= 20;
  }, 'Phone must have 7 to 20 digits');

export const MeetingLocationSchema = textSchema('Location', { max: 120, min: 2 });

/**
 * `POST /api/category`: books a car. The spec's other fields (userName, userEmail, price, img,
 * name) may be sent and are ignored: the server takes them from the session and the car.
 */
export const CreateBookingSchema = z.object({
  listingId: z.uuid({ message: 'Must be a valid car id' }),
  userPhone: PhoneSchema,
  userLocation: MeetingLocationSchema,
});
export type CreateBookingInput = z.infer<typeof CreateBookingSchema>;

/**
 * `POST /api/category` may carry an `Idempotency-Key` header: the same key again (a retry after
 * an answer was lost) answers the booking that key made instead of booking twice.
 */
export const IdempotencyKeySchema = z
  .string()
  .min(8, 'Idempotency-Key must have 8 to 200 characters')
  .max(200, 'Idempotency-Key must have 8 to 200 characters')
  .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key may contain visible ASCII characters only');
export const CreateBookingHeadersSchema = z.looseObject({
  'idempotency-key': IdempotencyKeySchema.optional(),
});

/** The booking form: what the buyer types. */
export const BookingFormSchema = CreateBookingSchema.omit({ listingId: true });
export type BookingFormInput = z.infer<typeof BookingFormSchema>;

export const InsertedSchema = z.object({ acknowledged: z.literal(true), insertedId: z.uuid() });

/** A booking as the buyer, the car's seller and admins see it (the spec's Booking fields). */
export const BookingSchema = z.object({
  _id: z.uuid(),
  listingId: z.uuid(),
  /** The car's name. */
  name: z.string(),
  img: z.string().nullable(),
  userName: z.string(),
  userEmail: z.string(),
  userPhone: z.string(),
  userLocation: z.string(),
  /** What the buyer pays, in minor units. */
  price: z.number().int(),
  currency: z.string(),
  status: z.enum(BOOKING_STATUSES),
  paid: z.boolean(),
  paidAt: z.string().nullable(),
  transactionId: z.string().nullable(),
  sellerName: z.string(),
  createdAt: z.string(),
  /** Why a `closed` booking closed; null otherwise (and for bookings closed before it was kept). */
  closedReason: z.enum(BOOKING_CLOSE_REASONS).nullable(),
  /** A paid booking's hand-over and money (decision 037); null unless paid. */
  handover: HandoverSchema.nullable(),
  /**
   * The car's status now: with the booking's, whether it is the car's sale, whose buyer and
   * seller talk on (isSaleOfCar, decision 050).
   */
  carStatus: z.enum(LISTING_STATUSES),
});
export type Booking = z.infer<typeof BookingSchema>;
export const BookingListSchema = z.array(BookingSchema);

/** `GET /api/bookedItem`: a booking of a seller's car, with whether the car is sold. */
export const BookedItemSchema = BookingSchema.extend({ sold: z.boolean() });
export type BookedItem = z.infer<typeof BookedItemSchema>;
export const BookedItemListSchema = z.array(BookedItemSchema);

/** `GET /api/booked/:id/receipt`: the receipt of a paid booking, for its buyer. */
export const ReceiptSchema = z.object({
  bookingId: z.uuid(),
  listingId: z.uuid(),
  carName: z.string(),
  carYear: z.number().int(),
  sellerName: z.string(),
  buyerName: z.string(),
  buyerEmail: z.string(),
  /** What the buyer paid, in minor units. */
  amount: z.number().int(),
  currency: z.string(),
  paidAt: z.string(),
  transactionId: z.string(),
  /** When an admin refunded the payment after the buyer's dispute (decision 037); else null. */
  refundedAt: z.string().nullable(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

/** `POST /api/create-payment-intent`: a `price` sent is ignored; the booking decides. */
export const CreatePaymentIntentSchema = z.object({
  bookingId: z.uuid({ message: 'Must be a valid booking id' }),
});
export const PaymentIntentResultSchema = z.object({
  clientSecret: z.string(),
  amount: z.number().int(),
  currency: z.string(),
});
export type PaymentIntentResult = z.infer<typeof PaymentIntentResultSchema>;

/** `POST /api/payments/hold`: the buyer sends the card form; the car is held for them. */
export const HoldPaymentSchema = CreatePaymentIntentSchema;
export const HoldResultSchema = z.object({
  /** When the hold ends (ISO time), unless the payment completes or fails first. */
  reservedUntil: z.string(),
});
export type HoldResult = z.infer<typeof HoldResultSchema>;

/** `POST /api/payments`: records a payment the processor confirmed. */
export const RecordPaymentSchema = z.object({
  bookingId: z.uuid({ message: 'Must be a valid booking id' }),
  transactionId: textSchema('Transaction id', { max: 255 }),
});
export const RecordPaymentResultSchema = z.object({
  acknowledged: z.literal(true),
  insertedId: z.string(),
  bookingId: z.uuid(),
  transactionId: z.string(),
  paidAt: z.string(),
});
export type RecordPaymentResult = z.infer<typeof RecordPaymentResultSchema>;

export const PaymentConfigSchema = z.object({
  provider: z.enum(['sandbox', 'stripe']),
  publishableKey: z.string().nullable(),
  holdMinutes: z.number().int(),
});
export type PaymentConfig = z.infer<typeof PaymentConfigSchema>;

export const SandboxConfirmSchema = z.object({
  clientSecret: textSchema('Client secret', { max: 200 }),
  card: z.object({
    number: z.string().max(40),
    expMonth: z.number().int(),
    expYear: z.number().int(),
    cvc: z.string().max(8),
  }),
  billingDetails: z
    .object({
      name: textSchema('Name on card', { max: 200, min: 0 }).optional(),
      email: textSchema('Email', { max: 254, min: 0 }).optional(),
    })
    .optional(),
});
export type SandboxConfirmInput = z.infer<typeof SandboxConfirmSchema>;
