import { z } from 'zod';

/** Ids are UUIDs everywhere; a malformed one is a 400 naming the field, never a 5xx. */
export const IdSchema = z.uuid({ message: 'Must be a valid id' });

export const IdParamsSchema = z.object({ id: IdSchema });
export type IdParams = z.infer<typeof IdParamsSchema>;

export const HealthSchema = z.object({ status: z.literal('ok') });
export const ReadySchema = z.object({
  status: z.literal('ready'),
  database: z.literal('up'),
  redis: z.literal('up').optional(),
});
