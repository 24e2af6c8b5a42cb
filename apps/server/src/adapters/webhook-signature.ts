import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookSignatureError } from './payment-gateway.ts';

/** Stripe's webhook signature scheme: `t=<unix time>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signPayload(
  payload: string,
  secret: string,
  timestamp = Math.floor(Date.now() / 1000),
): string {
  const signature = createHmac('sha256', secret).update(`${timestamp}.${payload}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}

export function verifySignature(
  payload: Buffer,
  header: string | undefined,
  secret: string,
  toleranceSeconds = 300,
): void {
  if (!header) throw new WebhookSignatureError('No signature header');
  const parts = header.split(',').map((part) => part.split('=', 2) as [string, string]);
  const timestamp = Number(parts.find(([key]) => key === 't')?.[1]);
  const signatures = parts.filter(([key]) => key === 'v1').map(([, value]) => value);
  if (!Number.isFinite(timestamp) || signatures.length === 0)
    throw new WebhookSignatureError('Malformed signature header');
  if (Math.abs(Date.now() / 1000 - timestamp) > toleranceSeconds)
    throw new WebhookSignatureError('Signature too old');
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(payload).digest();
  const matches = signatures.some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError('Signature does not match');
}
