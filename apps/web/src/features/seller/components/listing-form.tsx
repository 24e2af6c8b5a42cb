import {
  BODY_TYPES,
  CATEGORY_NAMES,
  COLOURS,
  CONDITIONS,
  FUEL_LABELS,
  FUELS,
  MAKE_NAMES,
  MIN_MODEL_YEAR,
  maxModelYear,
  modelsOf,
  OTHER,
  TRANSMISSION_LABELS,
  TRANSMISSIONS,
} from '@carmarket/shared';
import { useEffect, useId, type ReactNode } from 'react';
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
import { PlacePicker } from '../../search';
import { usePhotoUploads, type Photo } from '../hooks/use-photo-uploads';
import {
  editListingFormResolver,
  listingFormResolver,
  mileageUnit,
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
  make: 'make',
  model: 'model',
  bodyType: 'bodyType',
  fuel: 'fuel',
  transmission: 'transmission',
  colour: 'colour',
  vin: 'vin',
  placeId: 'location',
} as const satisfies Partial<Record<string, Path<ListingFormValues>>>;

const mileageUnitName = mileageUnit === 'mi' ? 'miles' : 'km';

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
  make: '',
  model: '',
  bodyType: null,
  fuel: null,
  transmission: null,
  colour: null,
  vin: '',
  placeId: null,
};

/** An optional choice: the empty option means "not given" (null). */
const orNull = { setValueAs: (value: unknown) => (value === '' || value == null ? null : value) };

/**
 * Location: a type-ahead of real places (the car can then be found by distance); any other
 * place name is accepted too, and then the car has no coordinates.
 */
function LocationControl({
  control,
  error,
}: {
  control: Control<ListingFormValues, unknown, ListingFormOutput>;
  error: string | undefined;
}) {
  const location = useController({ control, name: 'location' });
  const placeId = useController({ control, name: 'placeId' });
  return (
    <Field
      label="Location"
      hint={
        placeId.field.value
          ? 'Buyers searching near this place will find the car.'
          : 'Pick a town from the list so buyers can search by distance.'
      }
      error={error}
    >
      {(props) => (
        <PlacePicker
          inputId={props.id}
          describedBy={props['aria-describedby']}
          invalid={Boolean(error)}
          name="location"
          text={location.field.value}
          onText={(text) => {
            location.field.onChange(text);
            placeId.field.onChange(null);
          }}
          onPick={(place) => {
            location.field.onChange(place.label);
            placeId.field.onChange(place.id);
          }}
        />
      )}
    </Field>
  );
}

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
  blockedReason,
  onSave,
  onCancel,
}: {
  initialValues?: Partial<ListingFormValues>;
  initialPhotos?: Photo[];
  /** Editing: the category cannot change, so it is shown rather than asked. */
  categoryFixed?: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Why the car cannot be saved yet (the address is unconfirmed): the button says so. */
  blockedReason?: ReactNode;
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
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<ListingFormValues, unknown, ListingFormOutput>({
    resolver: categoryFixed ? editListingFormResolver : listingFormResolver,
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
  const make = watch('make');
  const categoryName = getValues('category');

  return (
    <form
      noValidate
      className="form-stack"
      onSubmit={(event) => {
        if (blockedReason) event.preventDefault();
        else void handleSubmit(handleSave)(event);
      }}
    >
      <FormAlert>{formError?.message}</FormAlert>
      <Field
        label="Name"
        hint="As buyers will see it, e.g. Toyota HiAce Commuter"
        error={errors.name?.message}
      >
        {(control) => (
          <input {...control} {...register('name')} type="text" className="input w-full" />
        )}
      </Field>

      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Make" error={errors.make?.message}>
          {(control) => (
            <select
              {...control}
              {...register('make', { onChange: () => setValue('model', '') })}
              className="select w-full"
            >
              <option value="" disabled>
                Choose the make
              </option>
              {MAKE_NAMES.map((make) => (
                <option key={make}>{make}</option>
              ))}
              <option value={OTHER}>Other make</option>
            </select>
          )}
        </Field>
        <Field
          label="Model"
          hint={make ? undefined : 'Choose the make first'}
          error={errors.model?.message}
        >
          {(control) => (
            <select {...control} {...register('model')} disabled={!make} className="select w-full">
              <option value="" disabled>
                Choose the model
              </option>
              {modelsOf(make).map((model) => (
                <option key={model}>{model}</option>
              ))}
              <option value={OTHER}>Other model</option>
            </select>
          )}
        </Field>
      </div>

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
        <Field
          label={`Mileage (${mileageUnitName}${categoryFixed ? ', optional' : ''})`}
          error={errors.mileageKm?.message}
        >
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
        <Field label="Body type (optional)" error={errors.bodyType?.message}>
          {(control) => (
            <select {...control} {...register('bodyType', orNull)} className="select w-full">
              <option value="">Not given</option>
              {BODY_TYPES.map((type) => (
                <option key={type}>{type}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Fuel (optional)" error={errors.fuel?.message}>
          {(control) => (
            <select {...control} {...register('fuel', orNull)} className="select w-full">
              <option value="">Not given</option>
              {FUELS.map((fuel) => (
                <option key={fuel} value={fuel}>
                  {FUEL_LABELS[fuel]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Gearbox (optional)" error={errors.transmission?.message}>
          {(control) => (
            <select {...control} {...register('transmission', orNull)} className="select w-full">
              <option value="">Not given</option>
              {TRANSMISSIONS.map((transmission) => (
                <option key={transmission} value={transmission}>
                  {TRANSMISSION_LABELS[transmission]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Colour (optional)" error={errors.colour?.message}>
          {(control) => (
            <select {...control} {...register('colour', orNull)} className="select w-full">
              <option value="">Not given</option>
              {COLOURS.map((colour) => (
                <option key={colour}>{colour}</option>
              ))}
            </select>
          )}
        </Field>
        <LocationControl control={control} error={errors.location?.message} />
        <Field
          label="VIN (optional)"
          hint="17 characters, on the windscreen or door frame"
          error={errors.vin?.message}
        >
          {(control) => (
            <input
              {...control}
              {...register('vin')}
              type="text"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={20}
              className="input w-full font-mono uppercase"
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
          aria-disabled={blockedReason ? true : undefined}
          aria-busy={busy || undefined}
          aria-describedby={
            blockedReason ? `${id}-blocked` : waiting > 0 ? `${id}-waiting` : undefined
          }
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
        {blockedReason && (
          <p id={`${id}-blocked`} className="text-sm text-muted">
            {blockedReason}
          </p>
        )}
        {waiting > 0 && !blockedReason && (
          <p id={`${id}-waiting`} className="text-sm text-muted">
            Wait until {waiting === 1 ? 'the photo has' : `${waiting} photos have`} finished
            uploading.
          </p>
        )}
      </div>
    </form>
  );
}
