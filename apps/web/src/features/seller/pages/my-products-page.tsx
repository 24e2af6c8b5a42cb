import type { MyListing } from '@carmarket/shared';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';

import { usePage } from '../../../lib/page';
import { toast } from '../../../lib/toast';
import { BookedItemsList } from '../components/booked-items-list';
import { EditListingDialog } from '../components/edit-listing-dialog';
import { MyCars } from '../components/my-cars';
import { WithdrawDialog } from '../components/withdraw-dialog';

/** My cars (`/myProduct`): the seller's cars with what can be done to them, then their bookings. */
export function MyProductsPage() {
  usePage({ title: 'My cars' });
  const [editing, setEditing] = useState<MyListing | null>(null);
  const [withdrawing, setWithdrawing] = useState<MyListing | null>(null);

  useEffect(() => toast.preload(), []);

  return (
    <div className="grid gap-12">
      <section aria-labelledby="my-cars-title">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <p className="section-eyebrow">Selling</p>
            <h1 id="my-cars-title" className="mt-2 text-3xl font-extrabold tracking-tight">
              My cars
            </h1>
          </div>
          <Link to="/dashboard/add-product" className="button button-primary button-sm">
            Add a car
          </Link>
        </div>
        <p className="mt-3 max-w-2xl leading-7 text-muted">
          A car is <strong>Sold</strong> once a buyer has paid for it. Advertised cars show on the
          home page while they are on sale.
        </p>
        <div className="mt-6">
          <MyCars onEdit={setEditing} onWithdraw={setWithdrawing} />
        </div>
      </section>

      <section aria-labelledby="booked-items-title">
        <h2 id="booked-items-title" className="text-2xl font-bold tracking-tight">
          Bookings of your cars
        </h2>
        <p className="mt-2 max-w-2xl leading-7 text-muted">
          Contact the buyer to arrange a viewing at the meeting place they chose.
        </p>
        <div className="mt-6">
          <BookedItemsList />
        </div>
      </section>

      <EditListingDialog car={editing} onClose={() => setEditing(null)} />
      <WithdrawDialog car={withdrawing} onClose={() => setWithdrawing(null)} />
    </div>
  );
}
