import { formatMoney, type Booking } from '@carmarket/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';

import { CheckIcon } from '../../../components/ui/icons';
import { LoadError } from '../../../components/ui/load-error';
import { LoadingStatus, PageState } from '../../../components/ui/page-state';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDeadline } from '../../../lib/deadline';
import { formatTime } from '../../../lib/format-date';
import { useSession } from '../../auth';
import { bookingKeys, BookingStatusBadge, ORDERS_PATH, useBooking } from '../../bookings';
import { usePaymentIntent } from '../api/create-payment-intent';
import { holdCar } from '../api/hold-car';
import { usePaymentConfig } from '../api/get-payment-config';
import { useRecordPayment } from '../api/record-payment';
import { SandboxPaymentForm } from '../components/sandbox-payment-form';
import { StripePaymentForm } from '../components/stripe-payment-form';

const paidOn = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const panelClass = 'rounded-box border border-base-300 bg-base-100 p-5 card-shadow sm:p-6';

/** The car, its price and its seller, beside the card form. */
function BookingSummary({ booking }: { booking: Booking }) {
  return (
    <section aria-labelledby="summary-title" className={panelClass}>
      <h2 id="summary-title" className="text-lg font-bold">
        Your booking
      </h2>
      <div className="mt-4 flex items-center gap-4">
        {booking.img ? (
          <img
            src={booking.img}
            alt=""
            width={120}
            height={80}
            className="h-20 w-30 shrink-0 rounded-lg bg-base-200 object-cover"
          />
        ) : (
          <span className="h-20 w-30 shrink-0 rounded-lg bg-base-200" aria-hidden="true" />
        )}
        <p className="min-w-0 font-semibold">
          <Link to={`/listing/${booking.listingId}`} className="hover:text-primary hover:underline">
            {booking.name}
          </Link>
        </p>
      </div>
      <dl className="mt-5 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-muted">Price</dt>
        <dd className="text-right text-lg font-bold text-primary">
          {formatMoney(booking.price, booking.currency)}
        </dd>
        <dt className="text-muted">Seller</dt>
        <dd className="text-right font-medium">{booking.sellerName}</dd>
        <dt className="text-muted">Status</dt>
        <dd className="text-right">
          <BookingStatusBadge status={booking.status} />
        </dd>
      </dl>
    </section>
  );
}

/** The end of the road: paid (just now, or before), with the transaction id. */
/**
 * Where the buyer's money waits (decision 037). Just after paying, the booking with its
 * hand-over date may still be on its way: the date shows once it is here.
 */
function HandoverNote({ handover }: { handover: Booking['handover'] }) {
  const due = handover?.state === 'awaiting-handover' ? handover.releaseDueAt : null;
  return (
    <p className="mt-2 leading-7 text-muted" data-testid="handover-note">
      Your money waits with us until you confirm the hand-over in{' '}
      <Link to={ORDERS_PATH} className="text-link">
        My Orders
      </Link>
      {due ? (
        <>
          , or is released to the seller automatically on{' '}
          <time dateTime={due}>{formatDeadline(due)}</time> unless you report a problem there first.
        </>
      ) : (
        '.'
      )}
    </p>
  );
}

function PaidPanel({
  title,
  transactionId,
  paidAt,
  focus = false,
  children,
}: {
  title: string;
  transactionId: string | null;
  paidAt: string | null;
  /** Just paid: screen-reader and keyboard users continue from here, not the vanished form. */
  focus?: boolean;
  children?: ReactNode;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) headingRef.current?.focus();
  }, [focus]);
  return (
    <section
      aria-labelledby="paid-title"
      className="rounded-box border border-success/40 bg-success/5 p-6 sm:p-8"
      data-testid="payment-complete"
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-success text-success-content">
        <CheckIcon className="size-7" strokeWidth={2.5} />
      </span>
      <h2
        id="paid-title"
        ref={headingRef}
        tabIndex={-1}
        className="mt-4 text-2xl font-extrabold tracking-tight focus:outline-none"
      >
        {title}
      </h2>
      {children}
      <dl className="mt-5 grid gap-3 text-sm">
        {transactionId && (
          <div className="min-w-0">
            <dt className="font-semibold text-muted">Transaction id</dt>
            <dd className="mt-0.5 font-mono text-base break-all" data-testid="transaction-id">
              {transactionId}
            </dd>
          </div>
        )}
        {paidAt && (
          <div>
            <dt className="font-semibold text-muted">Paid on</dt>
            <dd className="mt-0.5 text-base">
              <time dateTime={paidAt}>{paidOn.format(new Date(paidAt))}</time>
            </dd>
          </div>
        )}
      </dl>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to={ORDERS_PATH} className="button button-primary">
          Go to My Orders
        </Link>
        <Link to="/#categories" className="button button-outline">
          Browse more cars
        </Link>
      </div>
    </section>
  );
}

function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="notice-title" className={panelClass}>
      <h2 id="notice-title" className="text-xl font-bold">
        {title}
      </h2>
      <div className="mt-2 leading-7 text-muted">{children}</div>
      <Link to={ORDERS_PATH} className="button button-outline mt-5">
        Back to My Orders
      </Link>
    </section>
  );
}

/** Why paying cannot go on: a conflict (amber) or a failure (red), with what to do next. */
function Problem({
  tone,
  title,
  children,
  action,
}: {
  tone: 'warning' | 'error';
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  const colours = tone === 'error' ? 'border-error bg-error-soft' : 'border-accent bg-accent/15';
  return (
    <div role="alert" className={`rounded-box border p-5 ${colours}`}>
      <p className="font-semibold">{title}</p>
      <p className="mt-1 leading-7">{children}</p>
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

function FormSkeleton() {
  const bar = 'animate-pulse rounded-lg bg-base-300';
  return (
    <div aria-hidden="true" className="grid gap-5">
      <div className={`h-16 ${bar} bg-base-200`} />
      {Array.from({ length: 3 }, (_, index) => (
        <div key={index}>
          <div className={`h-5 w-28 ${bar}`} />
          <div className={`mt-2 h-10 ${bar} bg-base-200`} />
        </div>
      ))}
      <div className={`h-13 ${bar}`} />
    </div>
  );
}

/** Starts the payment and shows the processor's card form; sending it holds the car. */
function PayForBooking({
  booking,
  onPaid,
}: {
  booking: Booking;
  onPaid: (transactionId: string) => Promise<void>;
}) {
  const { user } = useSession();
  const config = usePaymentConfig();
  const intent = usePaymentIntent(booking._id, true);
  const queryClient = useQueryClient();
  const { refetch: refetchIntent } = intent;
  // Another buyer's card is being confirmed: the car is theirs until then, unless they fail.
  const heldByAnotherUntil =
    intent.error instanceof ApiError && intent.error.status === 409
      ? intent.error.reservedUntil
      : undefined;

  // Refused because the booking changed (paid, closed, cancelled)? Reload it to show that.
  useEffect(() => {
    if (intent.isError)
      void queryClient.invalidateQueries({ queryKey: bookingKeys.one(booking._id) });
  }, [intent.isError, booking._id, queryClient]);

  // When the other buyer's hold ends, look again by itself (a second late, to be past it).
  useEffect(() => {
    if (!heldByAnotherUntil) return;
    const wait = Math.max(0, new Date(heldByAnotherUntil).getTime() - Date.now()) + 1000;
    const timer = setTimeout(() => void refetchIntent(), wait);
    return () => clearTimeout(timer);
  }, [heldByAnotherUntil, refetchIntent]);

  let body: ReactNode;
  if (config.isPending || (intent.isPending && intent.isFetching)) {
    body = <LoadingStatus skeleton={<FormSkeleton />}>Preparing the payment…</LoadingStatus>;
  } else if (config.isError) {
    body = (
      <LoadError
        what="the payment form"
        error={config.error}
        retrying={config.isFetching}
        onRetry={() => void config.refetch()}
      />
    );
  } else if (heldByAnotherUntil) {
    body = (
      <Problem
        tone="warning"
        title="Another buyer is paying for this car"
        action={
          <button
            type="button"
            className="button button-outline button-sm"
            disabled={intent.isFetching}
            onClick={() => void intent.refetch()}
          >
            {intent.isFetching ? 'Checking…' : 'Check again'}
          </button>
        }
      >
        If they do not finish, it may be free again at {formatTime(heldByAnotherUntil)}. This page
        checks again then.
      </Problem>
    );
  } else if (intent.isError) {
    const conflict = intent.error instanceof ApiError && intent.error.status === 409;
    body = (
      <Problem
        tone={conflict ? 'warning' : 'error'}
        title={
          conflict ? 'You cannot pay for this car right now' : 'We could not start the payment'
        }
        action={
          <button
            type="button"
            className="button button-outline button-sm"
            disabled={intent.isFetching}
            onClick={() => void intent.refetch()}
          >
            {intent.isFetching ? 'Trying again…' : 'Try again'}
          </button>
        }
      >
        {errorMessage(intent.error)}
      </Problem>
    );
  } else {
    const amount = formatMoney(
      intent.data?.amount ?? booking.price,
      intent.data?.currency ?? booking.currency,
    );
    const formProps = {
      clientSecret: intent.isFetching ? undefined : intent.data?.clientSecret,
      amount,
      defaultBilling: {
        name: user?.name ?? booking.userName,
        email: user?.email ?? booking.userEmail,
      },
      hold: () => holdCar(booking._id),
      onSucceeded: onPaid,
      // A declined card keeps the hold and its payment open: asking again checks that it still is.
      onCardError: () => void intent.refetch(),
      // Another buyer got there first: asking again shows that, and until when.
      onHoldRefused: (error: unknown) => {
        if (error instanceof ApiError && error.reservedUntil) void intent.refetch();
      },
    };
    body =
      config.data.provider === 'stripe' && config.data.publishableKey ? (
        <StripePaymentForm {...formProps} publishableKey={config.data.publishableKey} />
      ) : (
        <SandboxPaymentForm {...formProps} />
      );
  }

  return (
    <section aria-labelledby="pay-title" className={panelClass}>
      <h2 id="pay-title" className="text-xl font-bold">
        Pay by card
      </h2>
      {config.data && !intent.isError && (
        <p className="mt-1 text-sm text-muted">
          When you press Pay, the car is held for you for up to {config.data.holdMinutes} minutes
          while your card is confirmed.
        </p>
      )}
      <div className="mt-5">{body}</div>
    </section>
  );
}

/** `/dashboard/payment/:id`: the buyer pays for booking `bookingId` by card. */
export function PaymentPage({ bookingId }: { bookingId: string }) {
  const { user } = useSession();
  const booking = useBooking(bookingId);
  const record = useRecordPayment();
  const [receipt, setReceipt] = useState<{ transactionId: string; paidAt: string } | null>(null);
  const [recordProblem, setRecordProblem] = useState<{
    transactionId: string;
    error: unknown;
  } | null>(null);

  async function handlePaid(transactionId: string) {
    setRecordProblem(null);
    try {
      const result = await record.mutateAsync({ bookingId, transactionId });
      setReceipt({ transactionId: result.transactionId, paidAt: result.paidAt });
    } catch (error) {
      setRecordProblem({ transactionId, error });
    }
  }

  /** The booking, and what its buyer can do about it now. */
  function bookingContent(data: Booking): ReactNode {
    let action: ReactNode;
    if (receipt) {
      action = (
        <PaidPanel
          title="Congrats! Your payment is complete"
          focus
          transactionId={receipt.transactionId}
          paidAt={receipt.paidAt}
        >
          <p className="mt-2 leading-7 text-muted">
            The {data.name} is yours. The seller has been told and will be in touch to hand it over.
          </p>
          <HandoverNote handover={data.handover} />
        </PaidPanel>
      );
    } else if (data.status === 'paid') {
      action = (
        <PaidPanel
          title="This booking is paid"
          transactionId={data.transactionId}
          paidAt={data.paidAt}
        >
          {data.handover?.state === 'awaiting-handover' && (
            <HandoverNote handover={data.handover} />
          )}
        </PaidPanel>
      );
    } else if (recordProblem) {
      const refunded =
        recordProblem.error instanceof ApiError && recordProblem.error.status === 409;
      action = refunded ? (
        <Problem
          tone="error"
          title="The payment could not complete the sale"
          action={
            <Link to={ORDERS_PATH} className="button button-outline button-sm">
              Back to My Orders
            </Link>
          }
        >
          {errorMessage(recordProblem.error)}
        </Problem>
      ) : (
        <Problem
          tone="error"
          title="Your card was charged, but we could not record the payment yet"
          action={
            <button
              type="button"
              className="button button-outline button-sm"
              disabled={record.isPending}
              onClick={() => void handlePaid(recordProblem.transactionId)}
            >
              {record.isPending ? 'Recording…' : 'Record my payment'}
            </button>
          }
        >
          {errorMessage(recordProblem.error)} Do not pay again: try recording it once more.
        </Problem>
      );
    } else if (data.status !== 'pending') {
      action = (
        <Notice title={`This booking is ${data.status}`}>
          {data.status === 'cancelled'
            ? 'It was cancelled, so it can no longer be paid.'
            : data.status === 'refunded'
              ? 'Its payment was refunded to you after the problem you reported.'
              : 'The car was sold to another buyer or taken off the market, so this booking can no longer be paid.'}{' '}
          You can book another car from its category.
        </Notice>
      );
    } else if (user && user.email.toLowerCase() !== data.userEmail.toLowerCase()) {
      action = (
        <Notice title="Only the buyer can pay">
          This booking belongs to {data.userName}; only they can pay for it.
        </Notice>
      );
    } else {
      action = <PayForBooking booking={data} onPaid={handlePaid} />;
    }
    return (
      <div className="grid items-start gap-6 xl:grid-cols-5">
        <div className="xl:order-last xl:col-span-2">
          <BookingSummary booking={data} />
        </div>
        <div className="min-w-0 xl:col-span-3">{action}</div>
      </div>
    );
  }

  const content = (
    <PageState
      query={booking}
      loading="Loading your booking…"
      skeleton={<div className="h-64 animate-pulse rounded-box bg-base-200" aria-hidden="true" />}
      what="your booking"
      renderError={(error, loadError) =>
        // Not there, or not this person's to see: asking again cannot change it (decision 008).
        error instanceof ApiError && error.status >= 400 && error.status < 500 ? (
          <Notice title="We could not find this booking">
            It may have been removed, the link may be mistyped, or it may belong to another account.
            Your own bookings are in My Orders.
          </Notice>
        ) : (
          loadError
        )
      }
    >
      {bookingContent}
    </PageState>
  );

  return (
    <div className="max-w-5xl">
      <Link to={ORDERS_PATH} className="text-link text-sm">
        ← My Orders
      </Link>
      <h1 className="mt-3 text-3xl font-extrabold tracking-tight sm:text-4xl">Payment</h1>
      <div className="mt-8">{content}</div>
    </div>
  );
}
