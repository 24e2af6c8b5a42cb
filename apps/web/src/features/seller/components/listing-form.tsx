import {
  BODY_TYPES,
  COLOURS,
  CONDITIONS,
  MAKE_NAMES,
  MIN_MODEL_YEAR,
  maxModelYear,
  modelsOf,
  OTHER,
} from '@carmarket/shared';
import { useEffect, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';

import { Field } from '../../../components/ui/field';
import { FormAlert } from '../../../components/ui/form-alert';
import { RequestCode } from '../../../components/ui/request-code';
import { SelectField } from '../../../components/ui/select-field';
import { useServerError } from '../../../lib/use-server-error';
import { useCategoryChoices } from '../../categories';
import { SellerPriceGuide } from '../../price-guide';
import { FillFromVinButton, useFillFromVin } from '../../vin';
import { usePhotoUploads, type Photo } from '../hooks/use-photo-uploads';
import { ListingFormActions, LocationControl, PhotosControl } from './listing-form-parts';
import {
  editListingFormResolver,
  emptyListingFormValues,
  FUEL_OPTIONS,
  LISTING_FORM_FIELDS,
  listingFormResolver,
  mileageUnit,
  orNull,
  TRANSMISSION_OPTIONS,
  type ListingFormOutput,
  type ListingFormValues,
} from './listing-form-schema';

const mileageUnitName = mileageUnit === 'mi' ? 'miles' : 'km';

/** A price in whole units or with cents. */
const priceInput = {
  type: 'number',
  inputMode: 'decimal',
  min: 0,
  step: 'any',
  className: 'input w-full',
} as const;

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
  const uploads = usePhotoUploads(initialPhotos);
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    setValue,
    control,
    getValues,
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm<ListingFormValues, unknown, ListingFormOutput>({
    resolver: categoryFixed ? editListingFormResolver : listingFormResolver,
    defaultValues: { ...emptyListingFormValues, ...initialValues },
  });
  const { formError, showServerError, clearFormError } = useServerError(
    setError,
    LISTING_FORM_FIELDS,
  );

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

  // The categories admins keep (GET /api/category), in their order.
  const categories = useCategoryChoices();
  const categoriesHint = categories.isError
    ? 'We could not load the categories. Reload the page to try again.'
    : undefined;

  const maxYear = maxModelYear();
  const make = watch('make');
  // Fill from VIN (decision 033): the catalogue's make and model, the year, body, fuel, gearbox.
  const vinFill = useFillFromVin({
    vin: watch('vin'),
    fields: { make, model: watch('model'), year: watch('year') },
    onDecoded: (decoded) => {
      const options = { shouldDirty: true, shouldValidate: isSubmitted };
      setValue('make', decoded.catalogue.make, options);
      // Once the make's models are the select's options (the effect below).
      setDecodedModel(decoded.catalogue.model);
      if (decoded.year) setValue('year', decoded.year, options);
      if (decoded.bodyType) setValue('bodyType', decoded.bodyType, options);
      if (decoded.fuel) setValue('fuel', decoded.fuel, options);
      if (decoded.transmission) setValue('transmission', decoded.transmission, options);
      clearErrors('vin');
    },
    onError: (message) => setError('vin', { type: 'server', message }, { shouldFocus: true }),
  });
  const [decodedModel, setDecodedModel] = useState<string | null>(null);
  useEffect(() => {
    if (decodedModel === null) return;
    setValue('model', decodedModel, { shouldDirty: true, shouldValidate: isSubmitted });
    setDecodedModel(null);
  }, [decodedModel, make, setValue, isSubmitted]);
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
        hint="As buyers will see it, e.g. Toyota HiAce Commuter"
        error={errors.name?.message}
      >
        {(control) => (
          <input {...control} {...register('name')} type="text" className="input w-full" />
        )}
      </Field>

      <Field
        label="VIN (optional)"
        hint={vinFill.hint ?? '17 characters, on the windscreen or door frame'}
        error={errors.vin?.message}
      >
        {(control) => (
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              {...control}
              {...register('vin', { onChange: () => clearErrors('vin') })}
              type="text"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={20}
              className="input w-full font-mono uppercase"
            />
            <FillFromVinButton
              fill={vinFill.fill}
              busy={vinFill.busy}
              disabled={vinFill.disabled}
              describedBy={control['aria-describedby']}
            />
          </div>
        )}
      </Field>

      <div className="grid gap-5 sm:grid-cols-2">
        <SelectField
          label="Make"
          error={errors.make?.message}
          field={() => register('make', { onChange: () => setValue('model', '') })}
          choose="Choose the make"
          options={[...MAKE_NAMES, { value: OTHER, label: 'Other make' }]}
        />
        <SelectField
          label="Model"
          hint={make ? undefined : 'Choose the make first'}
          error={errors.model?.message}
          field={() => register('model')}
          disabled={!make}
          choose="Choose the model"
          options={[...modelsOf(make), { value: OTHER, label: 'Other model' }]}
        />
      </div>

      {categoryFixed ? (
        <div>
          <p className="field-label">Category</p>
          <p>{categoryName}</p>
          <p className="field-hint">A car stays in the category it was added to.</p>
        </div>
      ) : (
        <SelectField
          label="Category"
          hint={categoriesHint}
          error={errors.category?.message}
          field={() => register('category')}
          choose={categories.isPending ? 'Loading categories…' : 'Choose a category'}
          options={categories.data?.map((category) => category.name) ?? []}
        />
      )}

      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Asking price (USD)"
          error={errors.reprice?.message}
          hint={<SellerPriceGuide control={control} mileageUnit={mileageUnit} />}
        >
          {(control) => (
            <input {...control} {...register('reprice', { valueAsNumber: true })} {...priceInput} />
          )}
        </Field>
        <Field
          label="Original price (USD)"
          hint="What the car cost new"
          error={errors.orprice?.message}
        >
          {(control) => (
            <input {...control} {...register('orprice', { valueAsNumber: true })} {...priceInput} />
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
        <SelectField
          label="Condition"
          error={errors.condition?.message}
          field={() => register('condition')}
          choose="Choose the condition"
          options={CONDITIONS}
        />
        <SelectField
          label="Body type (optional)"
          error={errors.bodyType?.message}
          field={() => register('bodyType', orNull)}
          options={BODY_TYPES}
        />
        <SelectField
          label="Fuel (optional)"
          error={errors.fuel?.message}
          field={() => register('fuel', orNull)}
          options={FUEL_OPTIONS}
        />
        <SelectField
          label="Gearbox (optional)"
          error={errors.transmission?.message}
          field={() => register('transmission', orNull)}
          options={TRANSMISSION_OPTIONS}
        />
        <SelectField
          label="Colour (optional)"
          error={errors.colour?.message}
          field={() => register('colour', orNull)}
          options={COLOURS}
        />
        <LocationControl control={control} error={errors.location?.message} />
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

      <ListingFormActions
        busy={busy}
        waiting={waiting}
        submitLabel={submitLabel}
        busyLabel={busyLabel}
        blockedReason={blockedReason}
        onCancel={onCancel}
      />
    </form>
  );
}
