import { CATEGORY_NAMES, CONDITIONS, MIN_MODEL_YEAR, maxModelYear } from '@carmarket/shared';
import { useEffect, useId } from 'react';
import {
  useController,
  useForm,
  type Control,
  type DefaultValues,
  type Path,
} from 'react-hook-form';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { useServerError } from '../../../lib/use-server-error';
import { usePhotoUploads, type Photo } from '../hooks/use-photo-uploads';
import {
  listingFormResolver,
  type ListingFormOutput,
  type ListingFormValues,
} from './listing-form-schema';
import { PhotoField } from './photo-field';

/** The API names the fields as the form does (the category too, though it is sent as `name`). */
const FIELDS = {
  name: 'name',
  category: 'category',
  reprice: 'reprice',
  orprice: 'orprice',
  location: 'location',
  year: 'year',
  mileageKm: 'mileageKm',
  condition: 'condition',
  seller: 'seller',
  describe: 'describe',
  images: 'images',
} as const satisfies Partial<Record<string, Path<ListingFormValues>>>;

/**
 * The photos as a form field, registered here rather than in ListingForm so that it comes after
 * the other fields: the first field with an error takes focus, in the order they registered.
 */
function PhotosControl({
  control,
  uploads,
}: {
  control: Control<ListingFormValues, unknown, ListingFormOutput>;
  uploads: ReturnType<typeof usePhotoUploads>;
}) {
  const { field, fieldState } = useController({ control, name: 'images' });
  return <PhotoField uploads={uploads} error={fieldState.error?.message} inputRef={field.ref} />;
}

const emptyValues: DefaultValues<ListingFormValues> = {
  name: '',
  location: '',
  mileageKm: null,
  condition: '',
  category: '',
  describe: '',
  seller: '',
  images: [],
};

/**
 * The car form, for adding a car and for editing one: the shared schema's rules and messages,
 * errors under each field (the first one takes focus), photos that upload as they are chosen.
 * `onSave` throws what the API answered; errors about a field show beside it.
 */
export function ListingForm({
  initialValues,
  initialPhotos,
  categoryFixed = false,
  submitLabel,
  busyLabel,
  onSave,
  onCancel,
}: {
  initialValues?: Partial<ListingFormValues>;
  initialPhotos?: Photo[];
  /** Editing: the category cannot change, so it is shown rather than asked. */
  categoryFixed?: boolean;
  submitLabel: string;
  busyLabel: string;
  onSave: (values: ListingFormOutput) => Promise<void>;
  onCancel?: () => void;
}) {
  const id = useId();
  const uploads = usePhotoUploads(initialPhotos);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    getValues,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<ListingFormValues, unknown, ListingFormOutput>({
    resolver: listingFormResolver,
    defaultValues: { ...emptyValues, ...initialValues },
  });
  const { formError, showServerError, clearFormError } = useServerError(setError, FIELDS);

  // The photos' URLs are the form's `images`, in their order, once uploaded.
  const urls = uploads.urls.join('\n');
  useEffect(() => {
    setValue('images', urls ? urls.split('\n') : [], {
      shouldDirty: true,
      shouldValidate: isSubmitted,
    });
  }, [urls, setValue, isSubmitted]);

  const waiting = uploads.uploadingCount;
  const busy = isSubmitting;

  async function handleSave(values: ListingFormOutput) {
    clearFormError();
    try {
      await onSave(values);
    } catch (error) {
      showServerError(error);
    }
  }

  const maxYear = maxModelYear();
  const categoryName = getValues('category');

  return (
    <form noValidate className="form-stack" onSubmit={handleSubmit(handleSave)}>
      <FormAlert>{formError?.message}</FormAlert>
      <Field label="Name" hint="Make and model, e.g. Toyota Hiace" error={errors.name?.message}>
        {(control) => (
          <input {...control} {...register('name')} type="text" className="input w-full" />
        )}
      </Field>

      {categoryFixed ? (
        <div>
          <p className="field-label">Category</p>
          <p>{categoryName}</p>
          <p className="field-hint">A car stays in the category it was added to.</p>
        </div>
      ) : (
        <Field label="Category" error={errors.category?.message}>
          {(control) => (
            <select {...control} {...register('category')} className="select w-full">
              <option value="" disabled>
                Choose a category
              </option>
              {CATEGORY_NAMES.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}

      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Asking price (USD)" error={errors.reprice?.message}>
          {(control) => (
            <input
              {...control}
              {...register('reprice', { valueAsNumber: true })}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              className="input w-full"
            />
          )}
        </Field>
        <Field
          label="Original price (USD)"
          hint="What the car cost new"
          error={errors.orprice?.message}
        >
          {(control) => (
            <input
              {...control}
              {...register('orprice', { valueAsNumber: true })}
              type="number"
              inputMode="decimal"
              min={0}
              step="any"
              className="input w-full"
            />
          )}
        </Field>
        <Field label="Model year" error={errors.year?.message}>
          {(control) => (
            <input
              {...control}
              {...register('year', { valueAsNumber: true })}
              type="number"
              inputMode="numeric"
              min={MIN_MODEL_YEAR}
              max={maxYear}
              step={1}
              placeholder={String(maxYear - 5)}
              className="input w-full"
            />
          )}
        </Field>
        <Field label="Mileage (km, optional)" error={errors.mileageKm?.message}>
          {(control) => (
            <input
              {...control}
              {...register('mileageKm', {
                setValueAs: (value: unknown) =>
                  value === '' || value === null || value === undefined ? null : Number(value),
              })}
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              className="input w-full"
            />
          )}
        </Field>
        <Field label="Condition" error={errors.condition?.message}>
          {(control) => (
            <select {...control} {...register('condition')} className="select w-full">
              <option value="" disabled>
                Choose the condition
              </option>
              {CONDITIONS.map((condition) => (
                <option key={condition} value={condition}>
                  {condition}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Location"
          hint="Where buyers can see the car"
          error={errors.location?.message}
        >
          {(control) => (
            <input
              {...control}
              {...register('location')}
              type="text"
              autoComplete="address-level2"
              className="input w-full"
            />
          )}
        </Field>
      </div>

      <Field
        label="Seller name"
        hint="Shown on the listing. Leave it empty to show your account name."
        error={errors.seller?.message}
      >
        {(control) => (
          <input
            {...control}
            {...register('seller')}
            type="text"
            autoComplete="name"
            className="input w-full"
          />
        )}
      </Field>

      <Field
        label="Description"
        hint="Service history, extras, known faults: what a buyer would ask you."
        error={errors.describe?.message}
      >
        {(control) => (
          <textarea {...control} {...register('describe')} rows={5} className="textarea w-full" />
        )}
      </Field>

      <PhotosControl control={control} uploads={uploads} />

      <div className="flex flex-col gap-3 border-t border-base-300 pt-5 sm:flex-row sm:items-center">
        <button
          type="submit"
          className="button button-primary"
          disabled={busy || waiting > 0}
          aria-busy={busy || undefined}
          aria-describedby={waiting > 0 ? `${id}-waiting` : undefined}
        >
          {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {busy ? busyLabel : submitLabel}
        </button>
        {onCancel && (
          <button
            type="button"
            className="button button-outline"
            onClick={onCancel}
            disabled={busy}
          >
            Cancel
          </button>
        )}
        {waiting > 0 && (
          <p id={`${id}-waiting`} className="text-sm text-muted">
            Wait until {waiting === 1 ? 'the photo has' : `${waiting} photos have`} finished
            uploading.
          </p>
        )}
      </div>
    </form>
  );
}
