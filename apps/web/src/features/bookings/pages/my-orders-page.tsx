import {
  CLOSED_BECAUSE,
  formatMoney,
  isSaleOfCar,
  saleConversationOpen,
  type Booking,
} from '@carmarket/shared';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { EmptyState, PageState } from '../../../components/ui/page-state';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useSession } from '../../auth';
import { MessageSellerButton } from '../../messages';
import { useCancelBooking } from '../api/cancel-booking';
import { useMyBookings } from '../api/get-my-bookings';
import { BookingStatusBadge } from '../components/booking-status-badge';
import { ConfirmHandoverDialog, ReportProblemDialog } from '../components/handover-dialogs';
import { focusHandover, HandoverStatus, useCanReportProblem } from '../components/handover-status';
import { paymentPath, receiptPath } from '../paths';

const bookedOn = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function BookedDate({ booking }: { booking: Booking }) {
  return <time dateTime={booking.createdAt}>{bookedOn.format(new Date(booking.createdAt))}</time>;
}

/** Thumbnail and name, both linking to the car's page. */
function CarLink({ booking }: { booking: Booking }) {
  return (
    <Link
      to={`/listing/${booking.listingId}`}
      className="group flex min-w-0 items-center gap-3 font-semibold"
    >
      {booking.img ? (
        <img
          src={booking.img}
          alt=""
          width={72}
          height={48}
          loading="lazy"
          decoding="async"
          className="h-12 w-18 shrink-0 rounded-lg bg-base-200 object-cover"
        />
      ) : (
        <span className="h-12 w-18 shrink-0 rounded-lg bg-base-200" aria-hidden="true" />
      )}
      <span className="min-w-0 group-hover:text-primary group-hover:underline">{booking.name}</span>
    </Link>
  );
}

/** What the buttons of a row open: cancelling a booking, confirming hand-over, a problem. */
interface OrderActions {
  onCancel: (booking: Booking) => void;
  onHandover: (booking: Booking) => void;
  onReport: (booking: Booking) => void;
}

/** A booking's badge, and for a paid one where its money is. */
function OrderStatus({ booking }: { booking: Booking }) {
  return (
    <div className="grid justify-items-start gap-1.5">
      <BookingStatusBadge status={booking.status} handover={booking.handover} />
      {booking.handover && (
        <HandoverStatus bookingId={booking._id} handover={booking.handover} reader="buyer" />
      )}
    </div>
  );
}

/**
 * A sale's buyer may write to the seller while its money is held and for some days after it was
 * released or refunded: a paid booking of a sold car, or a refunded one of the car its refund
 * withdrew (not once the car is removed, relisted or sold again); the server holds the same rule.
 */
function mayMessageSeller(booking: Booking) {
  if (!isSaleOfCar(booking.status, booking.carStatus)) return false;
  const handover = booking.handover;
  return saleConversationOpen(handover ? (handover.releasedAt ?? handover.refundedAt) : null);
}

/**
 * Pay and Cancel for a pending booking; the receipt and transaction id of a paid one (its badge
 * already says Paid), with Confirm hand-over while its money awaits hand-over, Report a problem
 * until the days for it end, and Message the seller while the sale's conversation is open; why a
 * cancelled or closed one ended.
 */
function BookingActions({
  booking,
  onCancel,
  onHandover,
  onReport,
}: { booking: Booking } & OrderActions) {
  const canReport = useCanReportProblem(booking.handover);
  if (booking.status === 'paid' || booking.status === 'refunded') {
    return (
      <div className="grid justify-items-start gap-1.5">
        {booking.handover?.state === 'awaiting-handover' && (
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              className="button button-primary button-sm"
              onClick={() => onHandover(booking)}
            >
              Confirm hand-over<span className="sr-only"> of the {booking.name}</span>
            </button>
            {canReport && (
              <button
                type="button"
                className="button button-outline button-sm"
                onClick={() => onReport(booking)}
              >
                Report a problem<span className="sr-only"> with the {booking.name}</span>
              </button>
            )}
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          {mayMessageSeller(booking) && (
            <MessageSellerButton
              car={{ _id: booking.listingId, name: booking.name, seller: booking.sellerName }}
            />
          )}
          <Link to={receiptPath(booking._id)} className="button button-outline button-sm">
            Receipt<span className="sr-only"> for the {booking.name}</span>
          </Link>
        </div>
        {booking.transactionId && (
          <span className="text-xs text-muted">
            Transaction{' '}
            <span className="font-mono break-all text-base-content" data-testid="transaction-id">
              {booking.transactionId}
            </span>
          </span>
        )}
      </div>
    );
  }
  if (booking.status === 'cancelled') {
    return <span className="text-sm text-muted">You cancelled this booking</span>;
  }
  if (booking.status === 'closed') {
    return (
      <span className="text-sm text-muted">
        {booking.closedReason
          ? `Closed because ${CLOSED_BECAUSE[booking.closedReason]}`
          : 'The car was sold to someone else or taken off sale'}
      </span>
    );
  }
  return (
    <div className="flex gap-2">
      <Link to={paymentPath(booking._id)} className="button button-primary button-sm">
        Pay<span className="sr-only"> for the {booking.name}</span>
      </Link>
      <button
        type="button"
        className="button button-outline button-sm"
        onClick={() => onCancel(booking)}
      >
        Cancel<span className="sr-only"> the booking of the {booking.name}</span>
      </button>
    </div>
  );
}

function OrdersTable({ bookings, actions }: { bookings: Booking[]; actions: OrderActions }) {
  const head = 'px-4 py-3 text-left text-xs font-semibold tracking-wide text-muted uppercase';
  const cell = 'px-4 py-3 align-middle';
  return (
    <div className="hidden overflow-x-auto rounded-box border border-base-300 @2xl:block">
      <table className="w-full text-sm">
        <caption className="sr-only">Your bookings, newest first</caption>
        <thead className="bg-base-200">
          <tr>
            <th scope="col" className={head}>
              Car
            </th>
            <th scope="col" className={head}>
              Price
            </th>
            <th scope="col" className={head}>
              Booked
            </th>
            <th scope="col" className={head}>
              Status
            </th>
            <th scope="col" className={head}>
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {bookings.map((booking) => (
            <tr key={booking._id} className="border-t border-base-300" data-testid="order-row">
              <td className={`${cell} min-w-56`}>
                <CarLink booking={booking} />
              </td>
              <td className={`${cell} font-semibold whitespace-nowrap`}>
                {formatMoney(booking.price, booking.currency)}
              </td>
              <td className={`${cell} whitespace-nowrap text-muted`}>
                <BookedDate booking={booking} />
              </td>
              <td className={cell}>
                <OrderStatus booking={booking} />
              </td>
              <td className={cell}>
                <BookingActions booking={booking} {...actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function OrdersCards({ bookings, actions }: { bookings: Booking[]; actions: OrderActions }) {
  return (
    <ul className="grid gap-4 @2xl:hidden">
      {bookings.map((booking) => (
        <li
          key={booking._id}
          className="rounded-box border border-base-300 bg-base-100 p-4 card-shadow"
          data-testid="order-card"
        >
          <CarLink booking={booking} />
          <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-xs font-semibold tracking-wide text-muted uppercase">Price</dt>
              <dd className="font-semibold">{formatMoney(booking.price, booking.currency)}</dd>
            </div>
            <div>
              <dt className="text-xs font-semibold tracking-wide text-muted uppercase">Booked</dt>
              <dd>
                <BookedDate booking={booking} />
              </dd>
            </div>
            <div className="col-span-2">
              <dt className="sr-only">Status</dt>
              <dd>
                <OrderStatus booking={booking} />
              </dd>
            </div>
          </dl>
          <div className="mt-4">
            <BookingActions booking={booking} {...actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function OrdersSkeleton() {
  return (
    <div aria-hidden="true" className="grid gap-3">
      {Array.from({ length: 3 }, (_, index) => (
        <div
          key={index}
          className="flex h-18 animate-pulse items-center gap-3 rounded-box border border-base-300 px-4"
        >
          <div className="h-12 w-18 rounded-lg bg-base-300" />
          <div className="h-4 w-1/3 rounded-lg bg-base-300" />
        </div>
      ))}
    </div>
  );
}

function CancelBookingDialog({
  booking,
  onClose,
}: {
  booking: Booking | null;
  onClose: () => void;
}) {
  const cancel = useCancelBooking();

  function handleClose() {
    cancel.reset();
    onClose();
  }

  function handleConfirm() {
    if (!booking) return;
    cancel.mutate(booking._id, {
      onSuccess: () => {
        toast.success('Booking cancelled');
        handleClose();
      },
    });
  }

  return (
    <ConfirmDialog
      open={booking !== null}
      onClose={handleClose}
      onConfirm={handleConfirm}
      title="Cancel this booking?"
      description={
        booking && (
          <>
            Your booking of the <strong className="text-base-content">{booking.name}</strong> at{' '}
            {formatMoney(booking.price, booking.currency)} will be cancelled. You can book the car
            again while it is available; if you had started paying for it, other buyers get a turn
            first, and you can pay for it again after a short wait.
          </>
        )
      }
      confirmLabel="Cancel booking"
      cancelLabel="Keep booking"
      busyLabel="Cancelling…"
      busy={cancel.isPending}
      danger
      error={cancel.isError ? errorMessage(cancel.error) : null}
    />
  );
}

/** My Orders (`/dashboard/orders`, `/orders`): the buyer's bookings with Pay, Paid and Cancel. */
export function MyOrdersPage() {
  const { user } = useSession();
  const email = user?.email ?? '';
  const bookings = useMyBookings(email);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const [handingOver, setHandingOver] = useState<Booking | null>(null);
  const [reporting, setReporting] = useState<Booking | null>(null);
  const actions: OrderActions = {
    onCancel: setCancelling,
    onHandover: setHandingOver,
    onReport: setReporting,
  };
  // The buttons that opened the dialog are gone once the list shows the new state: focus goes
  // to the booking's words about its money instead of falling back to the page.
  const [changed, setChanged] = useState<string | null>(null);
  const shownState = changed
    ? bookings.data?.find((booking) => booking._id === changed)?.handover?.state
    : undefined;
  useEffect(() => {
    if (!changed || shownState === undefined || shownState === 'awaiting-handover') return;
    focusHandover(changed);
    setChanged(null);
  }, [changed, shownState]);

  const body = (
    <PageState
      query={bookings}
      loading="Loading your bookings…"
      skeleton={<OrdersSkeleton />}
      what="your bookings"
      empty={
        <EmptyState
          title="You have not booked a car yet"
          description="Find one you like in a category and book it; it will show up here."
          action={
            <Link to="/#categories" className="button button-primary">
              Browse cars
            </Link>
          }
        />
      }
    >
      {(data) => (
        <div className="@container">
          <OrdersTable bookings={data} actions={actions} />
          <OrdersCards bookings={data} actions={actions} />
        </div>
      )}
    </PageState>
  );

  return (
    <div className="max-w-5xl">
      <p className="section-eyebrow">Buying</p>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">My Orders</h1>
      <p className="mt-3 text-lg text-muted">
        The cars you booked. Pay for one to make it yours; until then other buyers can book it too.
        The money waits until you confirm you have the car.
      </p>
      <div className="mt-8">{body}</div>
      <CancelBookingDialog booking={cancelling} onClose={() => setCancelling(null)} />
      <ConfirmHandoverDialog
        booking={handingOver}
        onClose={() => setHandingOver(null)}
        onDone={(booking) => setChanged(booking._id)}
      />
      <ReportProblemDialog
        booking={reporting}
        onClose={() => setReporting(null)}
        onDone={(booking) => setChanged(booking._id)}
      />
    </div>
  );
}
