import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BookedItemListSchema,
  BookingListSchema,
  BookingSchema,
  CreateBookingHeadersSchema,
  CreateBookingSchema,
  EmailQuerySchema,
  holdsRole,
  IdParamsSchema,
  InsertedSchema,
  ReceiptSchema,
} from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { MailSender } from '../mail/mail-queue.ts';
import type { DomainEvents } from '../../lib/events.ts';
import { bookingPolicy } from './bookings.policy.ts';
import { presentBookedItem, presentBooking, presentReceipt } from './bookings.presenter.ts';
import {
  bookedItems,
  bookingsOfEmail,
  cancelBooking,
  createBooking,
  findBooking,
  receiptOf,
} from './bookings.service.ts';
import { guard } from '../../plugins/auth.ts';
import { errorResponses } from '../../lib/route-schemas.ts';

export const bookingRoutes: FastifyPluginAsyncZod<{
  db: Db;
  /** Sends the booking's queued notices once it commits. */
  mail: MailSender;
  /** Where a booking is told (decision 026): its line in the buyer's conversation. */
  events: DomainEvents;
  /** REQUIRE_VERIFIED_EMAIL: booking waits for a confirmed address. */
  requireVerifiedEmail: boolean;
}> = async (app, { db, mail, events, requireVerifiedEmail }) => {
  app.post(
    '/category',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['bookings'],
        summary: 'Book a car (Buyer accounts; not your own car; available cars only)',
        description:
          'An `Idempotency-Key` header makes a retry safe: the same key again answers the booking it made.',
        headers: CreateBookingHeadersSchema,
        body: CreateBookingSchema,
        response: { 200: InsertedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { id } = await createBooking(
        db,
        mail,
        events,
        currentUser(request),
        request.body,
        request.headers['idempotency-key'],
        { requireVerifiedEmail },
      );
      return { acknowledged: true as const, insertedId: id };
    },
  );

  app.get(
    '/booked',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['bookings'],
        summary: "A buyer's bookings (that buyer or an admin)",
        querystring: EmailQuerySchema,
        response: { 200: BookingListSchema, ...errorResponses },
      },
    },
    async (request) => {
      authorize(bookingPolicy.canListBookingsOf(currentUser(request), request.query.email));
      return (await bookingsOfEmail(db, request.query.email)).map(presentBooking);
    },
  );

  app.get(
    '/booked/:id',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['bookings'],
        summary: "One booking (its buyer, the car's seller, or an admin)",
        params: IdParamsSchema,
        response: { 200: BookingSchema, ...errorResponses },
      },
    },
    async (request) => {
      const found = await findBooking(db, request.params.id);
      // One you may not see is "not found", as one that does not exist (decision 008).
      if (!found) throw notFound('That booking');
      authorize(bookingPolicy.canView(currentUser(request), found));
      return presentBooking(found);
    },
  );

  app.get(
    '/booked/:id/receipt',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['bookings'],
        summary: 'The receipt of a paid booking (its buyer)',
        params: IdParamsSchema,
        response: { 200: ReceiptSchema, ...errorResponses },
      },
    },
    async (request) => {
      const found = await findBooking(db, request.params.id);
      if (!found) throw notFound('That receipt');
      // Anyone but the buyer who paid sees no receipt, as if there were none (decision 008).
      authorize(bookingPolicy.canSeeReceipt(currentUser(request), found));
      const receipt = receiptOf(found);
      if (!receipt) throw notFound('That receipt');
      return presentReceipt(receipt);
    },
  );

  app.post(
    '/booked/:id/cancel',
    {
      preValidation: app.authenticate,
      schema: {
        tags: ['bookings'],
        summary: 'Cancel a pending booking (its buyer)',
        params: IdParamsSchema,
        response: { 200: BookingSchema, ...errorResponses },
      },
    },
    async (request) =>
      presentBooking(await cancelBooking(db, currentUser(request), request.params.id)),
  );

  app.get(
    '/bookedItem',
    {
      preValidation: [app.authenticate, guard(bookingPolicy.canListBookedItems)],
      schema: {
        tags: ['bookings'],
        summary: "Bookings of the seller's own cars (an admin sees all), each with `sold`",
        response: { 200: BookedItemListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      const rows = await bookedItems(db, holdsRole(actor.roles, 'admin') ? null : actor.id);
      return rows.map(presentBookedItem);
    },
  );
};
