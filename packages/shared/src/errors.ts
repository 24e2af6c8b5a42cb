import { z } from 'zod';

export * from './error-codes.ts';

export const ApiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
    retryAfterSeconds: z.number().int().optional(),
    /** When the hold that stops this request ends (ISO time): the car is reserved until then. */
    reservedUntil: z.string().optional(),
    /** The buyer's own booking that stops this request (booking a car they already booked). */
    bookingId: z.string().optional(),
    /** On a 500: the id our logs know the request by, for a report. */
    requestId: z.string().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;
