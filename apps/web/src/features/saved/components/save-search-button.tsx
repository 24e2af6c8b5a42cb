import { holdsRole } from '@carmarket/shared';
import { lazy, Suspense, useState } from 'react';

import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../lib/toast';
import { useSession } from '../../auth';
import { useCreateSavedSearch } from '../api/create-saved-search';

// The form loads when the dialog first opens, or when the pointer or focus reaches the button,
// not with the page of cars.
const loadForm = () => import('./save-search-form');
const SaveSearchForm = lazy(() =>
  loadForm().then((module) => ({ default: module.SaveSearchForm })),
);

function loadAhead() {
  void loadForm();
  toast.preload();
}

/** "Save this search" for signed-in buyers (nothing for anyone else): names it and saves it. */
export function SaveSearchButton({
  query,
  suggestedName,
}: {
  /** The search page's query string, to save. */
  query: string;
  suggestedName: string;
}) {
  const { user } = useSession();
  const [open, setOpen] = useState(false);
  const create = useCreateSavedSearch();
  if (!holdsRole(user?.roles, 'Buyer')) return null;

  function handleClose() {
    create.reset();
    setOpen(false);
  }

  return (
    <>
      <button
        type="button"
        className="button button-outline button-sm"
        aria-haspopup="dialog"
        onPointerEnter={loadAhead}
        onFocus={loadAhead}
        onClick={() => setOpen(true)}
      >
        Save this search
      </button>
      <Dialog
        open={open}
        onClose={handleClose}
        title="Save this search"
        description="Find it again under Saved searches in your dashboard, and hear about new cars that match it."
        busy={create.isPending}
      >
        <Suspense
          fallback={
            <p role="status" className="py-8 text-center text-muted">
              Loading the form…
            </p>
          }
        >
          <SaveSearchForm
            query={query}
            suggestedName={suggestedName}
            create={create}
            onCancel={handleClose}
            onDone={handleClose}
          />
        </Suspense>
      </Dialog>
    </>
  );
}
