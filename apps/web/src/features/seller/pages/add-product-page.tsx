import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';

import { toast } from '../../../lib/toast';
import { usePage } from '../../../lib/page';
import { useSession, useSignInOptions } from '../../auth';
import { useCreateListing } from '../api/create-listing';
import { ListingForm } from '../components/listing-form';
import { toCreateInput, type ListingFormOutput } from '../components/listing-form-schema';

export const MY_PRODUCTS_PATH = '/dashboard/my-products';

/** Add a car (`/product`): a seller lists a car; it goes on sale at once. */
export function AddProductPage() {
  usePage({ title: 'Add a car' });
  const { user } = useSession();
  const navigate = useNavigate();
  const create = useCreateListing();
  // Asked only of someone whose address is unconfirmed: nobody else needs the answer.
  const unconfirmed = !!user && !user.emailVerified;
  const options = useSignInOptions({ enabled: unconfirmed });
  const mustConfirm = unconfirmed && options.data?.requireVerifiedEmail === true;

  useEffect(() => toast.preload(), []);

  async function handleSave(values: ListingFormOutput) {
    await create.mutateAsync({ category: values.category, listing: toCreateInput(values) });
    toast.success('Car added');
    await navigate(MY_PRODUCTS_PATH);
  }

  return (
    <section aria-labelledby="add-product-title" className="max-w-3xl">
      <p className="section-eyebrow">Selling</p>
      <h1 id="add-product-title" className="mt-2 text-3xl font-extrabold tracking-tight">
        Add a car
      </h1>
      <p className="mt-3 leading-7 text-muted">
        Your car goes on sale as soon as you add it. Buyers see it in its category with your photos,
        both prices and your name.
      </p>
      <div className="mt-8">
        <ListingForm
          initialValues={{ seller: user?.name ?? '' }}
          submitLabel="Add car"
          busyLabel="Adding your car…"
          blockedReason={
            mustConfirm ? (
              <>
                Confirm your email address to list a car: open the link we mailed you.{' '}
                <Link to="/dashboard/settings" className="text-link font-semibold">
                  Send it again
                </Link>
              </>
            ) : undefined
          }
          onSave={handleSave}
        />
      </div>
    </section>
  );
}
