import { useState } from 'react';
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';

import { ApiError, errorMessage } from './api-client';

/** Codes that are about one field even when the server does not name it. */
const FIELD_OF_CODE: Record<string, string> = {
  'invalid-email': 'email',
  'email-already-in-use': 'email',
  'weak-password': 'password',
};

/**
 * The form field a failed call is about, if any. `fields` maps the API's names to the form's; a
 * path such as `images.0` is about the field it starts with (`images`) unless mapped itself.
 */
export function fieldOfError<F extends string>(
  error: unknown,
  fields: Partial<Record<string, F>>,
): F | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const field = error.field ?? FIELD_OF_CODE[error.code];
  if (!field) return undefined;
  const head = field.split('.')[0]!;
  const name = Object.hasOwn(fields, field) ? field : head;
  return Object.hasOwn(fields, name) ? fields[name] : undefined;
}

export interface FormError {
  code: string;
  message: string;
  /** What the server answered, for the code the person may quote (RequestCode). */
  error?: unknown;
}

/**
 * Shows what the API answered where it belongs: beside the field it is about (which takes
 * focus), else as `formError`, for a FormAlert at the top of the form.
 */
export function useServerError<T extends FieldValues>(
  setError: UseFormSetError<T>,
  fields: Partial<Record<string, Path<T>>>,
) {
  const [formError, setFormError] = useState<FormError | null>(null);

  function showServerError(error: unknown) {
    const field = fieldOfError(error, fields);
    if (field) {
      setError(field, { type: 'server', message: errorMessage(error) }, { shouldFocus: true });
    } else {
      const code = error instanceof ApiError ? error.code : 'internal';
      setFormError({ code, message: errorMessage(error), error });
    }
  }

  return {
    formError,
    showServerError,
    /** Shows a message of the page's own at the top of the form. */
    showFormError: (message: string) => setFormError({ code: 'client', message }),
    /** Call before sending, so that a repeated message is announced again. */
    clearFormError: () => setFormError(null),
  };
}
