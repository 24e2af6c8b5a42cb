import { formatMoney, type BookedItem } from '@carmarket/shared';

import { EmptyState, PageState } from '../../../components/ui/page-state';
import { formatDate } from '../../../lib/format-date';
import { BookingStatusBadge, HandoverStatus } from '../../bookings';
import { useBookedItems } from '../api/booked-items';
import { SaleLabel } from './car-labels';
import { compactTable } from './my-cars';

function Buyer({ item }: { item: BookedItem }) {
  return (
    <>
      <span className="block font-semibold">{item.userName}</span>
      <a href={`mailto:${item.userEmail}`} className="text-link block text-sm break-words">
        {item.userEmail}
      </a>
      <a
        href={`tel:${item.userPhone.replace(/[^\d+]/g, '')}`}
        className="text-link block text-sm whitespace-nowrap"
      >
        {item.userPhone}
      </a>
    </>
  );
}

/** The booking's badge, and for a paid one where its money is. */
function BookingStatus({ item }: { item: BookedItem }) {
  return (
    <div className="grid justify-items-start gap-1.5">
      <BookingStatusBadge status={item.status} handover={item.handover} />
      {item.handover && (
        <HandoverStatus bookingId={item._id} handover={item.handover} reader="seller" />
      )}
    </div>
  );
}

function BookingsTable({ items }: { items: BookedItem[] }) {
  return (
    // contain: its width never widens the page; a table too wide scrolls inside it.
    <div className="hidden overflow-x-auto rounded-box border border-base-300 [contain:inline-size] xl:block">
      <table className={compactTable}>
        <caption className="sr-only">Bookings of your cars</caption>
        <thead>
          <tr>
            <th scope="col">Car</th>
            <th scope="col">Buyer</th>
            <th scope="col">Meeting place</th>
            <th scope="col">Price</th>
            <th scope="col">Status</th>
            <th scope="col">Sale</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item._id} data-testid="booked-item-row">
              <th scope="row" className="font-normal">
                <span className="block font-semibold">{item.name}</span>
                <span className="block text-xs text-muted">
                  Booked {formatDate(item.createdAt)}
                </span>
              </th>
              <td>
                <Buyer item={item} />
              </td>
              <td>{item.userLocation}</td>
              <td className="whitespace-nowrap">{formatMoney(item.price, item.currency)}</td>
              <td>
                <BookingStatus item={item} />
              </td>
              <td>
                <SaleLabel sold={item.sold} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function BookingCards({ items }: { items: BookedItem[] }) {
  return (
    <ul className="grid gap-4 md:grid-cols-2 xl:hidden">
      {items.map((item) => (
        <li key={item._id} className="rounded-box border border-base-300 bg-base-100 p-4">
          <div className="flex items-start justify-between gap-3">
            <h3 className="font-semibold">{item.name}</h3>
            <SaleLabel sold={item.sold} />
          </div>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-muted">Buyer</dt>
            <dd className="min-w-0">
              <Buyer item={item} />
            </dd>
            <dt className="text-muted">Meet at</dt>
            <dd>{item.userLocation}</dd>
            <dt className="text-muted">Price</dt>
            <dd>{formatMoney(item.price, item.currency)}</dd>
            <dt className="text-muted">Booked</dt>
            <dd>{formatDate(item.createdAt)}</dd>
            <dt className="text-muted">Status</dt>
            <dd>
              <BookingStatus item={item} />
            </dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

/** Bookings of the seller's cars (the spec's "booked items"), newest first. */
export function BookedItemsList() {
  const bookings = useBookedItems();
  return (
    <PageState
      query={bookings}
      loading="Loading bookings…"
      what="the bookings"
      empty={
        <EmptyState
          title="No bookings yet"
          description="When a buyer books one of your cars, their contact details and meeting place show here."
        />
      }
    >
      {(data) => (
        <>
          <BookingsTable items={data} />
          <BookingCards items={data} />
        </>
      )}
    </PageState>
  );
}
