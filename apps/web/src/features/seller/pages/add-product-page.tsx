import { useEffect } from 'react';
import { useNavigate } from 'react-router';

import { toast } from '../../../lib/toast';
import { usePage } from '../../../lib/page';
import { useSession } from '../../auth';
import { useCreateListing } from '../api/create-listing';
import { ListingForm } from '../components/listing-form';
import { toCreateInput, type ListingFormOutput } from '../components/listing-form-schema';

export const MY_PRODUCTS_PATH = '/dashboard/my-products';

/** Add Product (`/product`): a seller lists a car; it goes on sale at once. */
export function AddProductPage() {
  usePage({ title: 'Add Product' });
  const { user } = useSession();
  const navigate = useNavigate();
  const create = useCreateListing();

  useEffect(() => toast.preload(), []);

  async function handleSave(values: ListingFormOutput) {
    await create.mutateAsync({ category: values.category, listing: toCreateInput(values) });
    toast.success('Product added');
    await navigate(MY_PRODUCTS_PATH);
  }

  return (
    <section aria-labelledby="add-product-title" className="max-w-3xl">
      <p className="section-eyebrow">Add Product</p>
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
          onSave={handleSave}
        />
      </div>
    </section>
  );
}
