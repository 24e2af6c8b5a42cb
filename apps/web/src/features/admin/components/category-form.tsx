import {
  CreateCategorySchema,
  type CategoryIcon,
  type CategoryIconOption,
  type CreateCategoryInput,
} from '@carmarket/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, type ReactNode } from 'react';
import { useForm, type Resolver, type UseFormRegisterReturn } from 'react-hook-form';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { RequestCode } from '../../../components/ui/request-code';
import { errorMessage } from '../../../lib/api-client';
import { useServerError } from '../../../lib/use-server-error';
import { useCategoryIcons } from '../api/categories';

type CategoryFormValues = { name: string; icon: CategoryIcon | null };

const checkFields = zodResolver(CreateCategorySchema);
/** The shared schema's rules and messages; no icon chosen (a seeded one kept) is no icon sent. */
const checkCategory: Resolver<CategoryFormValues, unknown, CreateCategoryInput> = (
  values,
  context,
  options,
) =>
  checkFields(
    { name: values.name, icon: values.icon ?? undefined },
    context,
    options as never,
  ) as ReturnType<Resolver<CategoryFormValues, unknown, CreateCategoryInput>>;

/** The icons of the set as radio buttons, each its picture and its name in words. */
function IconChoice({
  icons,
  field,
  error,
}: {
  icons: ReturnType<typeof useCategoryIcons>;
  field: () => UseFormRegisterReturn;
  error?: string | undefined;
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="field-label">Icon</legend>
      {icons.isPending ? (
        <p role="status" className="text-sm text-muted">
          Loading the icons…
        </p>
      ) : icons.isError ? (
        <p role="alert" className="text-sm text-error">
          We could not load the icons: {errorMessage(icons.error)}
        </p>
      ) : (
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-6">
          {icons.data.map((icon: CategoryIconOption) => (
            <label
              key={icon.name}
              className="flex cursor-pointer flex-col items-center gap-1 rounded-box border border-base-300 p-2 text-center text-xs has-[:checked]:border-primary has-[:checked]:bg-primary/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-primary"
            >
              <input type="radio" value={icon.name} className="sr-only" {...field()} />
              <img src={icon.url} alt="" width={48} height={48} className="size-12" />
              {icon.label}
            </label>
          ))}
        </div>
      )}
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * A category's name and icon: the Add form on the page, and the Edit dialog's form. `onSave`
 * throws what the API answered; a duplicate or empty name shows beside the name.
 */
export function CategoryForm({
  initial,
  submitLabel,
  busyLabel,
  onSave,
  actions,
}: {
  initial: CategoryFormValues;
  submitLabel: string;
  busyLabel: string;
  onSave: (values: CreateCategoryInput) => Promise<void>;
  /** Buttons beside the submit button (the dialog's Cancel). */
  actions?: ReactNode;
}) {
  const icons = useCategoryIcons();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<CategoryFormValues, unknown, CreateCategoryInput>({
    resolver: checkCategory,
    defaultValues: initial,
  });
  const { formError, showServerError, clearFormError } = useServerError(setError, {
    name: 'name',
    icon: 'icon',
  });

  async function handleSave(values: CreateCategoryInput) {
    clearFormError();
    try {
      await onSave(values);
      reset(initial);
    } catch (error) {
      showServerError(error);
    }
  }

  return (
    <form
      noValidate
      className="form-stack"
      onSubmit={(event) => void handleSubmit(handleSave)(event)}
    >
      <FormAlert>
        {formError && (
          <>
            {formError.message}
            <RequestCode error={formError.error} />
          </>
        )}
      </FormAlert>
      <Field
        label="Name"
        hint="As people will see it, e.g. Pickup truck"
        error={errors.name?.message}
      >
        {(control) => (
          <input
            {...control}
            {...register('name')}
            type="text"
            autoComplete="off"
            maxLength={40}
            className="input w-full"
          />
        )}
      </Field>
      <IconChoice icons={icons} field={() => register('icon')} error={errors.icon?.message} />
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        {actions}
        <button
          type="submit"
          className="button button-primary"
          disabled={isSubmitting}
          aria-busy={isSubmitting || undefined}
        >
          {isSubmitting && (
            <span className="loading loading-spinner loading-sm" aria-hidden="true" />
          )}
          {isSubmitting ? busyLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
