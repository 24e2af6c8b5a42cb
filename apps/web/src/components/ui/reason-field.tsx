import { useRef, useState } from 'react';

import { errorMessage } from '../../lib/api-client';
import { fieldOfError } from '../../lib/use-server-error';
import { Field } from './field';

/** A shared schema's `safeParse` answer, as much of it as the field reads. */
type Parsed<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: readonly { message: string }[] } };

/**
 * The words a dialog asks for before it acts (a problem's reason, a ruling's note, why a car is
 * removed). The shared schema checks them before they are sent and the server again after;
 * either refusal shows beside the field, which takes focus. `name` is the API's name of the field.
 */
export function useReasonField(name: string) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const ref = useRef<HTMLTextAreaElement>(null);
  const fields = { [name]: name };

  function showError(message: string) {
    setError(message);
    ref.current?.focus();
  }

  return {
    value,
    error,
    ref,
    setValue,
    /** The shared schema's answer: its data, or null with its first problem shown beside the field. */
    check: <T,>(parsed: Parsed<T>): T | null => {
      if (!parsed.success) {
        showError(parsed.error.issues[0]?.message ?? 'Please fill this in');
        return null;
      }
      setError(undefined);
      return parsed.data;
    },
    /** A refused call: its message goes beside the field when the server says it is about it. */
    showServerError: (problem: unknown) => {
      if (fieldOfError(problem, fields)) showError(errorMessage(problem));
    },
    /** A refused call's message for the dialog itself; null when it shows beside the field. */
    dialogError: (call: { isError: boolean; error: unknown }): string | null =>
      call.isError && !fieldOfError(call.error, fields) ? errorMessage(call.error) : null,
    /** Empties it, for the next time the dialog opens. */
    reset: () => {
      setValue('');
      setError(undefined);
    },
  };
}

export type ReasonFieldState = ReturnType<typeof useReasonField>;

/** The labelled text box of `useReasonField`, focused when its dialog opens. */
export function ReasonField({
  reason,
  label,
  hint,
  rows = 4,
  maxLength,
}: {
  reason: ReasonFieldState;
  label: string;
  hint: string;
  rows?: number;
  maxLength: number;
}) {
  return (
    <Field label={label} hint={hint} error={reason.error}>
      {(control) => (
        <textarea
          {...control}
          ref={reason.ref}
          value={reason.value}
          onChange={(event) => reason.setValue(event.target.value)}
          rows={rows}
          maxLength={maxLength}
          required
          className="textarea w-full"
          data-autofocus
        />
      )}
    </Field>
  );
}
