import type { SandboxGateway } from '../adapters/sandbox-gateway.ts';
import type { PaymentDeps } from '../modules/payments/payment-deps.ts';
import { sweepPayments } from '../modules/payments/sweeper.ts';
import type { Job } from './job.ts';

/**
 * The payment sweep (decisions 006, 008), every PAYMENT_SWEEP_SECONDS: lapsed holds freed,
 * payments left open by a crash settled with the processor.
 */
export function paymentSweepJob(
  deps: PaymentDeps,
  intervalMs: number,
): Job<Awaited<ReturnType<typeof sweepPayments>>> {
  return {
    name: 'payment sweep',
    intervalMs,
    async run() {
      // Events the sandbox still owes our webhook go first: they settle most of what is open.
      if (deps.gateway.provider === 'sandbox') await (deps.gateway as SandboxGateway).redeliver();
      return sweepPayments(deps);
    },
  };
}
