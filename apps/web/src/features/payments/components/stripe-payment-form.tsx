import { useEffect, useRef, useState } from 'react';

import { PaymentForm, type Billing } from './payment-form';

/*
 * Just the parts of Stripe.js this page uses, typed loosely: the script is loaded from Stripe at
 * run time (only on this page), so there is no package to take types from.
 */
interface StripeCardElement {
  mount: (element: HTMLElement) => void;
  on: (event: 'change', handler: (event: StripeChange) => void) => void;
  destroy: () => void;
}
interface StripeChange {
  complete: boolean;
  error?: { message?: string };
}
interface StripeInstance {
  elements: () => { create: (type: 'card', options?: object) => StripeCardElement };
  confirmCardPayment: (
    clientSecret: string,
    data: object,
  ) => Promise<{
    error?: { message?: string };
    paymentIntent?: { id: string; status: string };
  }>;
}
type StripeFactory = (publishableKey: string) => StripeInstance;

const STRIPE_JS = 'https://js.stripe.com/v3';
let stripeScript: Promise<StripeFactory> | undefined;

/** Adds Stripe.js to the page once. */
function loadStripe(): Promise<StripeFactory> {
  stripeScript ??= new Promise<StripeFactory>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = STRIPE_JS;
    script.async = true;
    script.onload = () => {
      const factory = (window as { Stripe?: StripeFactory }).Stripe;
      if (factory) resolve(factory);
      else reject(new Error('Stripe.js did not load.'));
    };
    script.onerror = () => {
      stripeScript = undefined;
      reject(new Error('We could not load the card form. Check your connection and reload.'));
    };
    document.head.append(script);
  });
  return stripeScript;
}

type PaymentFormProps = Parameters<typeof PaymentForm>[0];

/** Stripe: its Card Element collects the card; Stripe.js confirms the payment. */
export function StripePaymentForm({
  publishableKey,
  clientSecret,
  ...props
}: Omit<PaymentFormProps, 'cardFields' | 'cardGaps' | 'confirm' | 'ready' | 'children'> & {
  publishableKey: string;
  clientSecret: string | undefined;
}) {
  const mountRef = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ instance: StripeInstance; card: StripeCardElement } | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [complete, setComplete] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let card: StripeCardElement | undefined;
    loadStripe().then(
      (Stripe) => {
        if (cancelled || !mountRef.current) return;
        const instance = Stripe(publishableKey);
        card = instance.elements().create('card', { hidePostalCode: true });
        card.mount(mountRef.current);
        card.on('change', (event) => {
          setComplete(event.complete);
          setProblem(event.error?.message ?? null);
        });
        stripe.current = { instance, card };
        setLoaded(true);
      },
      (error: unknown) => {
        if (!cancelled) setProblem(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      cancelled = true;
      card?.destroy();
      stripe.current = null;
    };
  }, [publishableKey]);

  async function confirm(billing: Billing): Promise<string> {
    if (!stripe.current || !clientSecret) throw new Error('The card form is not ready yet.');
    const { instance, card } = stripe.current;
    const result = await instance.confirmCardPayment(clientSecret, {
      payment_method: { card, billing_details: billing },
    });
    if (result.error || result.paymentIntent?.status !== 'succeeded') {
      throw new Error(result.error?.message ?? 'The payment did not go through. Please try again.');
    }
    return result.paymentIntent.id;
  }

  const cardFields = (
    <div>
      <p className="field-label" id="stripe-card-label">
        Card
      </p>
      <div
        ref={mountRef}
        role="group"
        aria-labelledby="stripe-card-label"
        className="input flex w-full items-center [&>*]:flex-1"
      />
      {problem && <p className="field-error">{problem}</p>}
    </div>
  );

  return (
    <PaymentForm
      {...props}
      cardFields={cardFields}
      cardGaps={{
        // Stripe's field shows its own problem, under the field.
        missing: complete || problem ? [] : ['your card details'],
        problems: problem ? ['Check the card details above.'] : [],
      }}
      ready={loaded && !!clientSecret}
      confirm={confirm}
    />
  );
}
