// Setup shared by the payment tests (payments, holds-and-refunds).
import { eq } from 'drizzle-orm';
import { listing } from '../../db/schema.ts';
import { TestClient } from '../../test/client.ts';
import { TEST_CARD } from '../../test/fixtures.ts';
import { type TestApp } from '../../test/test-app.ts';

export async function startPaying(client: TestClient, bookingId: string) {
  const response = await client.post('/api/create-payment-intent', { bookingId, price: 1 });
  return {
    response,
    body: (await response.clone().json()) as {
      clientSecret: string;
      amount: number;
      currency: string;
    },
  };
}

/**
 * `POST /api/payments/hold`: what the payment page asks as the card form is sent; from `address`
 * when the test app trusts a proxy (TRUST_PROXY), as another network than the other buyers'.
 */
export async function hold(client: TestClient, bookingId: string, address?: string) {
  const response = await client.request('/api/payments/hold', {
    method: 'POST',
    json: { bookingId },
    ...(address && { headers: { 'x-forwarded-for': address } }),
  });
  return {
    response,
    body: (await response.clone().json()) as { reservedUntil: string },
  };
}

export async function carRow(app: TestApp, id: string) {
  return (await app.database.db.select().from(listing).where(eq(listing.id, id)))[0]!;
}

export async function confirmCard(app: TestApp, clientSecret: string, card = TEST_CARD) {
  const response = await new TestClient(app).post('/api/payments/sandbox/confirm', {
    clientSecret,
    card,
    billingDetails: { name: 'Bea Buyer', email: 'bea@example.com' },
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      paymentIntent?: { id: string; status: string };
      error?: { type: string; code: string; message: string; decline_code?: string };
    },
  };
}

/** Waits for the sandbox's asynchronous webhook to have done its work. */
export async function eventually<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 5000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() - started > timeoutMs) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
