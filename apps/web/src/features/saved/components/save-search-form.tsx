import type { AlertChoice } from '@carmarket/shared';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { FormActions } from '../../../components/ui/submit-button';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import type { useCreateSavedSearch } from '../api/create-saved-search';
import { ALERT_HINTS, ALERT_LABELS, ALERT_ORDER } from '../alert-choices';

const SAVED_SEARCHES_PATH = '/dashboard/searches';

/** A name (suggested from the filters) and the alerts wanted; sent as a saved search. */
export function SaveSearchForm({
  query,
  suggestedName,
  create,
  onCancel,
  onDone,
}: {
  query: string;
  suggestedName: string;
  create: ReturnType<typeof useCreateSavedSearch>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const [name, setName] = useState(suggestedName);
  const [alerts, setAlerts] = useState<AlertChoice>('instant');
  const [nameError, setNameError] = useState<string>();
  const navigate = useNavigate();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    create.reset();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError('Name is required');
      event.currentTarget.querySelector('input')?.focus();
      return;
    }
    setNameError(undefined);
    create.mutate(
      { name: trimmed, query, alerts },
      {
        onSuccess: () => {
          onDone();
          toast.success('Search saved', {
            label: 'Saved searches',
            href: SAVED_SEARCHES_PATH,
            onClick: () => void navigate(SAVED_SEARCHES_PATH),
          });
        },
      },
    );
  }

  return (
    <form className="form-stack" noValidate onSubmit={handleSubmit}>
      <FormAlert>{create.isError && errorMessage(create.error)}</FormAlert>
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
      <Field label="Email alerts" hint={ALERT_HINTS[alerts]}>
        {(control) => (
          <select
            {...control}
            className="select w-full"
            value={alerts}
            onChange={(event) => setAlerts(event.target.value as AlertChoice)}
          >
            {ALERT_ORDER.map((choice) => (
              <option key={choice} value={choice}>
                {ALERT_LABELS[choice]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <FormActions busy={create.isPending} onCancel={onCancel}>
        Save search
      </FormActions>
    </form>
  );
}
