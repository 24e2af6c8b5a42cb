import { formatMoney, type MyListing } from '@carmarket/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';

import { EmptyState, PageState } from '../../../components/ui/page-state';
import { formatDate } from '../../../lib/format-date';
import { usePage } from '../../../lib/page';
import { ListingStatusBadge } from '../../seller';
import { useUserCars } from '../api/user-cars';
import { RemoveCarDialog } from '../components/remove-car-dialog';

const canRemove = (car: MyListing) => car.status !== 'sold' && car.status !== 'removed';

function bookingsText(car: MyListing): string {
  const total = `${car.bookingsCount} ${car.bookingsCount === 1 ? 'booking' : 'bookings'}`;
  return car.openBookingsCount > 0 ? `${total} (${car.openBookingsCount} open)` : total;
}

function CarCard({ car, onRemove }: { car: MyListing; onRemove: (car: MyListing) => void }) {
  const image = car.images[0];
  return (
    <li className="rounded-box border border-base-300 bg-base-100 p-4" data-testid="user-car">
      <div className="flex gap-3">
        {image ? (
          <img
            src={image.thumbUrl}
            alt=""
            width={image.width}
            height={image.height}
            loading="lazy"
            className="aspect-[4/3] w-28 shrink-0 rounded-lg bg-base-200 object-cover"
          />
        ) : (
          <div className="aspect-[4/3] w-28 shrink-0 rounded-lg bg-base-200" aria-hidden="true" />
        )}
        <div className="min-w-0 flex-1">
          <h2 className="font-semibold break-words">
            <Link to={`/listing/${car._id}`} className="text-link">
              {car.name}
            </Link>
          </h2>
          <p className="text-xs text-muted">
            {car.categoryName} · {car.year} · listed {formatDate(car.createdAt)}
          </p>
          <p className="mt-1 font-semibold">{formatMoney(car.reprice, car.currency)}</p>
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted">Status</dt>
        {/* Focused after a removal, in place of the Remove button that has gone. */}
        <dd id={`car-status-${car._id}`} tabIndex={-1} className="w-fit">
          <ListingStatusBadge status={car.status} />
        </dd>
        <dt className="text-muted">Bookings</dt>
        <dd>{bookingsText(car)}</dd>
      </dl>
      {canRemove(car) && (
        <div className="mt-3 border-t border-base-300 pt-3">
          <button
            type="button"
            className="button button-outline button-sm text-error"
            onClick={() => onRemove(car)}
            aria-label={`Remove ${car.name}`}
          >
            Remove car
          </button>
        </div>
      )}
    </li>
  );
}

/**
 * A person's cars (`/dashboard/users/:id/cars`, admins): every car they listed, removed ones
 * too, newest first; an admin removes a car here with a reason the seller is mailed.
 */
export function UserCarsPage({ id }: { id: string }) {
  const userCars = useUserCars(id);
  const [removing, setRemoving] = useState<MyListing | null>(null);
  const queryClient = useQueryClient();
  const name = userCars.data?.user.name;
  usePage({ title: name ? `Cars of ${name}` : 'Cars of a user' });

  const body = (
    <PageState
      query={userCars}
      loading="Loading the cars…"
      what="these cars"
      isEmpty={(data) => data.listings.length === 0}
      empty={(data) => <EmptyState title={`${data.user.name} has no cars on CarMarket`} />}
    >
      {(data) => (
        <ul className="grid gap-4 md:grid-cols-2" aria-label={`Cars of ${data.user.name}`}>
          {data.listings.map((car) => (
            <CarCard key={car._id} car={car} onRemove={setRemoving} />
          ))}
        </ul>
      )}
    </PageState>
  );

  return (
    <section aria-labelledby="user-cars-title">
      <Link to="/dashboard/allUser?role=Seller" className="text-link text-sm">
        ← All Sellers
      </Link>
      <p className="section-eyebrow mt-4">Administration</p>
      <h1 id="user-cars-title" className="mt-2 text-3xl font-extrabold tracking-tight break-words">
        {name ? `Cars of ${name}` : 'Cars'}
      </h1>
      {userCars.data && (
        <p className="mt-3 max-w-2xl leading-7 break-words text-muted">
          {userCars.data.user.email}: every car they listed, newest first, removed ones too.
          Removing a car takes it off the site and mails the seller your reason.
        </p>
      )}
      <div className="mt-6">{body}</div>
      <RemoveCarDialog
        car={removing}
        queryClient={queryClient}
        onClose={() => setRemoving(null)}
        onRemoved={() => {
          const car = removing;
          if (car) document.getElementById(`car-status-${car._id}`)?.focus();
        }}
      />
    </section>
  );
}
