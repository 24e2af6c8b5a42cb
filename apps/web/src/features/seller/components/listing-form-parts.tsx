import { useId, type ReactNode } from 'react';
import { useController, type Control } from 'react-hook-form';

import { Field } from '../../../components/ui/field';
import { PlacePicker } from '../../search';
import type { usePhotoUploads } from '../hooks/use-photo-uploads';
import type { ListingFormOutput, ListingFormValues } from './listing-form-schema';
import { PhotoField } from './photo-field';

/* The car form's parts that are more than one input: photos, location, the buttons. */

/**
 * The photos as a form field, registered here rather than in ListingForm so that it comes after
 * the other fields: the first field with an error takes focus, in the order they registered.
 */
export function PhotosControl({
  control,
  uploads,
}: {
  control: Control<ListingFormValues, unknown, ListingFormOutput>;
  uploads: ReturnType<typeof usePhotoUploads>;
}) {
  const { field, fieldState } = useController({ control, name: 'images' });
  return <PhotoField uploads={uploads} error={fieldState.error?.message} inputRef={field.ref} />;
}

/**
 * Location: a type-ahead of real places (the car can then be found by distance); any other
 * place name is accepted too, and then the car has no coordinates.
 */
export function LocationControl({
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

/** Save and Cancel, and why saving waits (photos uploading) or cannot happen yet. */
export function ListingFormActions({
  busy,
  waiting,
  submitLabel,
  busyLabel,
  blockedReason,
  onCancel,
}: {
  busy: boolean;
  /** Photos still uploading. */
  waiting: number;
  submitLabel: string;
  busyLabel: string;
  blockedReason?: ReactNode;
  onCancel?: (() => void) | undefined;
}) {
  const id = useId();
  return (
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
        <button type="button" className="button button-outline" onClick={onCancel} disabled={busy}>
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
  );
}
