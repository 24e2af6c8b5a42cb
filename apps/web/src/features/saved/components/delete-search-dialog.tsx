import type { SavedSearch } from '@carmarket/shared';

import { ConfirmDialog } from '../../../components/ui/dialog';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useDeleteSavedSearch } from '../api/delete-saved-search';

/** Asks before deleting a saved search (open while `search` is set). */
export function DeleteSearchDialog({
  search,
  onClose,
  onDeleted,
}: {
  search: SavedSearch | null;
  onClose: () => void;
  /** After it is gone (its row, and the button that opened this, go with it). */
  onDeleted: () => void;
}) {
  const remove = useDeleteSavedSearch();

  function handleClose() {
    remove.reset();
    onClose();
  }

  function handleConfirm() {
    if (!search) return;
    remove.mutate(search._id, {
      onSuccess: () => {
        toast.success('Saved search deleted');
        handleClose();
        onDeleted();
      },
    });
  }

  return (
    <ConfirmDialog
      open={search !== null}
      onClose={handleClose}
      onConfirm={handleConfirm}
      title="Delete this saved search?"
      description={
        search && (
          <>
            <strong className="text-base-content">{search.name}</strong> and its email alerts will
            be deleted. The cars stay on sale.
          </>
        )
      }
      confirmLabel="Delete search"
      cancelLabel="Keep it"
      busyLabel="Deleting…"
      busy={remove.isPending}
      danger
      error={remove.isError ? errorMessage(remove.error) : null}
    />
  );
}
