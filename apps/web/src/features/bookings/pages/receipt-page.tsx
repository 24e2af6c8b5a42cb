import { formatMoney, type Receipt } from '@carmarket/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { PageState } from '../../../components/ui/page-state';
import { siteName } from '../../../config/site';
import { ApiError } from '../../../lib/api-client';
import { useReceipt } from '../api/get-receipt';
import { ORDERS_PATH } from '../paths';

const paidOn = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-muted uppercase">{term}</dt>
      <dd className="mt-1 font-medium">{children}</dd>
    </div>
  );
}

function ReceiptView({ receipt }: { receipt: Receipt }) {
  const amount = formatMoney(receipt.amount, receipt.currency);
  const paidAt = <time dateTime={receipt.paidAt}>{paidOn.format(new Date(receipt.paidAt))}</time>;
  const refundedAt = receipt.refundedAt && (
    <time dateTime={receipt.refundedAt}>{paidOn.format(new Date(receipt.refundedAt))}</time>
  );
  return (
    <article
      aria-labelledby="receipt-title"
      className="mt-6 rounded-box border border-base-300 bg-base-100 p-5 card-shadow sm:p-8"
    >
      <header className="flex flex-wrap items-end justify-between gap-4 border-b border-base-300 pb-6">
        <div>
          <p className="section-eyebrow">{siteName}</p>
          <h1 id="receipt-title" className="mt-2 text-3xl font-extrabold tracking-tight">
            Receipt
          </h1>
          <p className="mt-2 text-muted">Paid on {paidAt}</p>
          {refundedAt && (
            <p
              data-testid="receipt-refunded"
              className="mt-3 rounded-box border border-warning bg-warning/10 px-3 py-2 font-semibold"
            >
              Refunded on {refundedAt}
            </p>
          )}
        </div>
        <p className="sm:text-right">
          <span className="block text-sm text-muted">Amount paid</span>
          <span className="text-3xl font-extrabold text-primary">{amount}</span>
          {refundedAt && (
            <span className="block text-sm font-semibold">Refunded to you in full</span>
          )}
        </p>
      </header>
      <dl className="grid gap-x-8 gap-y-5 py-6 sm:grid-cols-2">
        <Row term="Car">
          <Link to={`/listing/${receipt.listingId}`} className="hover:text-primary hover:underline">
            {receipt.carName}
          </Link>{' '}
          <span className="text-muted">({receipt.carYear})</span>
        </Row>
        <Row term="Seller">{receipt.sellerName}</Row>
        <Row term="Buyer">
          {receipt.buyerName}
          <span className="block text-sm font-normal break-all text-muted">
            {receipt.buyerEmail}
          </span>
        </Row>
        <Row term="Date">{paidAt}</Row>
        <Row term="Amount">{amount}</Row>
        <Row term="Transaction id">
          <span className="font-mono text-sm break-all" data-testid="receipt-transaction-id">
            {receipt.transactionId}
          </span>
        </Row>
        <Row term="Booking reference">
          <span className="font-mono text-sm break-all">{receipt.bookingId}</span>
        </Row>
        {refundedAt && <Row term="Refunded">{refundedAt}</Row>}
      </dl>
      <p className="border-t border-base-300 pt-6 text-sm leading-6 text-muted">
        {refundedAt
          ? `Paid by card through ${siteName}, and refunded to that card after the problem you reported.`
          : `Paid by card through ${siteName}. The seller has been told and will be in touch to hand over the car.`}{' '}
        Keep this receipt for your records.
      </p>
    </article>
  );
}

/** The receipt of a paid booking (`/dashboard/receipt/:id`), for the buyer who paid; prints alone. */
export function ReceiptPage({ bookingId }: { bookingId: string }) {
  const receipt = useReceipt(bookingId);
  const { data } = receipt;

  const body = (
    <PageState
      query={receipt}
      loading="Loading your receipt…"
      skeleton={
        <div className="mt-6 h-96 animate-pulse rounded-box bg-base-200" aria-hidden="true" />
      }
      what="your receipt"
      renderError={(error, loadError) =>
        error instanceof ApiError && (error.status === 404 || error.status === 400) ? (
          <div className="mt-6 rounded-box border border-base-300 bg-base-200 p-6">
            <h1 className="text-2xl font-bold">We could not find this receipt</h1>
            <p className="mt-2 leading-7 text-muted">
              A receipt shows once a booking is paid, to the buyer who paid. Your bookings, with a
              receipt for each one you paid, are in My Orders.
            </p>
          </div>
        ) : (
          <div className="mt-6">
            <h1 className="sr-only">Receipt</h1>
            {loadError}
          </div>
        )
      }
    >
      {(loaded) => <ReceiptView receipt={loaded} />}
    </PageState>
  );

  return (
    <div className="max-w-3xl">
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={ORDERS_PATH} className="text-link text-sm">
          ← My Orders
        </Link>
        {data && (
          <button type="button" className="button button-primary" onClick={() => window.print()}>
            Print receipt
          </button>
        )}
      </div>
      {body}
    </div>
  );
}
