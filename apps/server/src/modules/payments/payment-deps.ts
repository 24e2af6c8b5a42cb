import type { Db } from '../../db/client.ts';
import type { DomainEvents } from '../../lib/events.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { PaymentGateway } from '../../adapters/payment-gateway.ts';
import type { Metrics } from '../../lib/metrics.ts';
import type { HoldLimits } from './hold-limits.ts';

/** What every payment step needs. */
export interface PaymentDeps {
  db: Db;
  /** Where a sale is told (decision 026). */
  events: DomainEvents;
  gateway: PaymentGateway;
  mailer: Mailer;
  holdMinutes: number;
  holdLimits: HoldLimits;
  /** The site's address, for links in mail. */
  siteOrigin: () => string;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Holds, payments and refunds counted by outcome (GET /metrics). */
  metrics: Pick<Metrics, 'holds' | 'payments' | 'refunds'>;
}
