import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { PaymentGateway } from '../../adapters/payment-gateway.ts';
import type { Metrics } from '../../lib/metrics.ts';
import type { CounterStore } from '../../lib/rate-limit.ts';
import type { MailSender } from '../mail/mail-queue.ts';

/** What hand-over, disputes and payouts need (decision 037). */
export interface PayoutDeps {
  db: Db;
  /** Refunds go back to the card through it; payouts go out through `gateway.payouts`. */
  gateway: PaymentGateway;
  /** Mail is queued in the transaction of the step it tells of; `kick()` after the commit. */
  mail: MailSender;
  log: FastifyBaseLogger;
  /** The site's own origin, for links in mail and the payout account's return page. */
  siteOrigin: () => string;
  currency: string;
  feePercent: number;
  releaseDays: number;
  /** Rate limits of the calls that cost a provider's calls (a payout account's set-up). */
  counters: CounterStore;
  /** Payouts and dispute refunds counted by outcome (GET /metrics). */
  metrics: Pick<Metrics, 'payouts' | 'refunds'>;
}
