import type { SandboxConfirmInput } from '@carmarket/shared';

import { api } from '../../../lib/api-client';

export interface ConfirmedIntent {
  paymentIntent: { id: string; status: string; amount: number; currency: string };
}

/**
 * `POST /api/payments/sandbox/confirm`: the built-in processor's stand-in for Stripe.js's
 * confirmCardPayment. A refused card answers 402 with `{error: {type, code, message}}`, which
 * the API client turns into an ApiError whose message is the processor's own words.
 */
export function confirmSandboxPayment(input: SandboxConfirmInput): Promise<ConfirmedIntent> {
  return api.post<ConfirmedIntent>('/payments/sandbox/confirm', input);
}
