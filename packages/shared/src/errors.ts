import { z } from 'zod';

export * from './error-codes.ts';

export const ApiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
    retryAfterSeconds: z.number().int().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorSchema>;
