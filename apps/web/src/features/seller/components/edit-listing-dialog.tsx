import type { ListingBasics } from '@carmarket/shared';

import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../lib/toast';
import { useUpdateListing } from '../api/manage-listing';
import { savedPhotos } from '../hooks/use-photo-uploads';
import { ListingForm } from './listing-form';
import { changesOf, formValuesOf, type ListingFormOutput } from './listing-form-schema';

/** The add form again, filled in with the car; only what changed is sent. */
export function EditListingDialog({
  car,
  onClose,
}: {
  /** One of the seller's own cars (from My cars, or its page). */
  car: ListingBasics | null;
  onClose: () => void;
}) {
  const update = useUpdateListing();

  async function handleSave(values: ListingFormOutput) {
    if (!car) return;
    const changes = changesOf(car, values);
    if (Object.keys(changes).length === 0) {
      toast.info('Nothing changed');
      onClose();
      return;
    }
    await update.mutateAsync({ id: car._id, changes });
    toast.success('Changes saved');
    onClose();
  }

  return (
    <Dialog
      open={!!car}
      onClose={onClose}
      title={car ? `Edit ${car.name}` : ''}
      busy={update.isPending}
      wide
    >
      {car && (
        <ListingForm
          key={car._id}
          initialValues={formValuesOf(car)}
          initialPhotos={savedPhotos(car.images)}
          categoryFixed
          submitLabel="Save changes"
          busyLabel="Saving…"
          onSave={handleSave}
          onCancel={onClose}
        />
      )}
    </Dialog>
  );
}
