import type { SavedSearch } from '@carmarket/shared';
import { useState, type FormEvent } from 'react';

import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { FormActions } from '../../../components/ui/submit-button';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { useUpdateSavedSearch } from '../api/update-saved-search';

function RenameForm({
  search,
  update,
  onClose,
}: {
  search: SavedSearch;
  update: ReturnType<typeof useUpdateSavedSearch>;
  onClose: () => void;
}) {
  const [name, setName] = useState(search.name);
  const [nameError, setNameError] = useState<string>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    update.reset();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError('Name is required');
      event.currentTarget.querySelector('input')?.focus();
      return;
    }
    setNameError(undefined);
    if (trimmed === search.name) {
      onClose();
      return;
    }
    update.mutate(
      { id: search._id, changes: { name: trimmed } },
      {
        onSuccess: () => {
          toast.success('Saved search renamed');
          onClose();
        },
      },
    );
  }

  return (
    <form className="form-stack" noValidate onSubmit={handleSubmit}>
      <FormAlert>{update.isError && errorMessage(update.error)}</FormAlert>
      <Field label="Name" error={nameError}>
        {(control) => (
          <input
            {...control}
            className="input w-full"
            value={name}
            maxLength={120}
            autoComplete="off"
            data-autofocus
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <FormActions busy={update.isPending} onCancel={onClose}>
        Save name
      </FormActions>
    </form>
  );
}

/** A new name for a saved search (open while `search` is set). */
export function RenameSearchDialog({
  search,
  onClose,
}: {
  search: SavedSearch | null;
  onClose: () => void;
}) {
  const update = useUpdateSavedSearch();

  function handleClose() {
    update.reset();
    onClose();
  }

  return (
    <Dialog
      open={search !== null}
      onClose={handleClose}
      title="Rename saved search"
      busy={update.isPending}
    >
      {search && <RenameForm search={search} update={update} onClose={handleClose} />}
    </Dialog>
  );
}
