import type { BaseSyntheticEvent, ReactNode } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
} from 'react-hook-form';

import { useServerError, type FormError } from '../../lib/use-server-error';
import { FormAlert } from './form-alert';
import { RequestCode } from './request-code';
import { SubmitButton } from './submit-button';

/**
 * A form that sends its values to the API: react-hook-form with the shared schema's resolver,
 * and the API's answer shown where it belongs (beside its field, which takes focus, or at the
 * top). `send` throws what the API answered, or returns false when it stopped before sending (a
 * check of the form's own failed, e.g. after `showFormError`); `onSent` runs after a send that
 * succeeded, and the form stays busy until it is done (a navigation, say).
 */
export function useApiForm<T extends FieldValues>({
  resolver,
  defaultValues,
  fields,
  send,
  onSent,
}: {
  resolver: Resolver<T>;
  defaultValues: DefaultValues<T>;
  /** The API's field names to the form's: `{ password: 'newPassword' }`. */
  fields: Partial<Record<string, Path<T>>>;
  send: (values: T) => Promise<unknown>;
  onSent?: (values: T) => unknown;
}) {
  const form = useForm<T>({ resolver, defaultValues });
  const { formError, showServerError, showFormError, clearFormError } = useServerError(
    form.setError,
    fields,
  );

  const onSubmit = form.handleSubmit(async (values) => {
    // Cleared first, so that the same message is announced again.
    clearFormError();
    let sent: unknown;
    try {
      sent = await send(values);
    } catch (error) {
      showServerError(error);
      return;
    }
    if (sent !== false) await onSent?.(values);
  });

  return {
    form,
    errors: form.formState.errors,
    isSubmitting: form.formState.isSubmitting,
    formError,
    showFormError,
    onSubmit,
  };
}

/**
 * The frame of such a form: its heading, the message about the whole form (an error, then a
 * success), the fields, and the submit button with its words while sending.
 */
export function ApiForm({
  form,
  heading,
  error,
  success,
  submit,
  className,
  children,
}: {
  form: {
    formError: FormError | null;
    isSubmitting: boolean;
    onSubmit: (event?: BaseSyntheticEvent) => Promise<void>;
  };
  heading?: ReactNode;
  /** What the alert at the top says, when the form words it itself; the API's message if not. */
  error?: ReactNode;
  /** Shown, and focused, once the form did what it is for; falsy until then. */
  success?: ReactNode;
  /**
   * The submit button: its words, and its class (at the start of the row unless given); left
   * out when the form's own buttons come last in `children`.
   */
  submit?: { label: ReactNode; busyLabel: string; className?: string };
  className?: string;
  children: ReactNode;
}) {
  return (
    <form
      noValidate
      className={className ? `form-stack ${className}` : 'form-stack'}
      onSubmit={form.onSubmit}
    >
      {heading}
      <FormAlert>
        {error === undefined
          ? form.formError && (
              <>
                {form.formError.message}
                <RequestCode error={form.formError.error} />
              </>
            )
          : error}
      </FormAlert>
      {success !== undefined && <FormAlert kind="success">{success}</FormAlert>}
      {children}
      {submit && (
        <SubmitButton
          busy={form.isSubmitting}
          busyLabel={submit.busyLabel}
          className={submit.className ?? 'sm:justify-self-start'}
        >
          {submit.label}
        </SubmitButton>
      )}
    </form>
  );
}
