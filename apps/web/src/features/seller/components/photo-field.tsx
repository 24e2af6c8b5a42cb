import { MAX_LISTING_PHOTOS } from '@carmarket/shared';
import { useId, useRef, type Ref } from 'react';

import { ArrowRightIcon } from '../../../components/ui/icons';
import { PHOTO_TYPES } from '../api/upload-photo';
import type { Photo, usePhotoUploads } from '../hooks/use-photo-uploads';

type Uploads = ReturnType<typeof usePhotoUploads>;

function photoLabel(index: number) {
  return index === 0 ? 'Photo 1 (cover)' : `Photo ${index + 1}`;
}

function PhotoItem({
  photo,
  index,
  count,
  uploads,
}: {
  photo: Photo;
  index: number;
  count: number;
  uploads: Uploads;
}) {
  const label = photoLabel(index);
  const { moveTo, remove, retry, setNotice } = uploads;

  function move(to: number, message: string) {
    moveTo(photo.key, to);
    setNotice(message);
  }

  return (
    <li
      className={`flex flex-col overflow-hidden rounded-box border bg-base-100 ${photo.status === 'failed' ? 'border-error' : 'border-base-300'}`}
      data-testid="photo-item"
    >
      <div className="relative aspect-[4/3] bg-base-200">
        <img
          src={photo.previewUrl}
          alt={`${label}: ${photo.name}`}
          className="size-full object-cover"
          width={320}
          height={240}
        />
        {index === 0 && (
          <span className="badge badge-sm badge-primary absolute top-2 left-2">Cover</span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3">
        <p className="truncate text-sm font-semibold" title={photo.name}>
          {label}
        </p>
        {photo.status === 'uploading' && (
          <div>
            <progress
              className="progress progress-primary w-full"
              value={Math.round(photo.progress * 100)}
              max={100}
              aria-label={`Uploading ${label.toLowerCase()}`}
            />
            <p className="text-xs text-muted">Uploading… {Math.round(photo.progress * 100)} %</p>
          </div>
        )}
        {photo.status === 'done' && <p className="text-xs text-success">Uploaded</p>}
        {photo.status === 'failed' && (
          <p className="text-xs font-medium text-error" role="alert">
            Not uploaded: {photo.error}
          </p>
        )}
        <div className="mt-auto grid gap-2">
          {photo.status === 'failed' && photo.file && (
            <button
              type="button"
              className="button button-outline button-sm w-full"
              onClick={() => retry(photo.key)}
              aria-label={`Upload ${label.toLowerCase()} again`}
            >
              Try again
            </button>
          )}
          {index > 0 && photo.status !== 'failed' && (
            <button
              type="button"
              className="button button-outline button-sm w-full"
              onClick={() => move(0, `${photo.name} is now the cover photo.`)}
              aria-label={`Make ${label.toLowerCase()} the cover`}
            >
              Make cover
            </button>
          )}
          <div className="flex flex-wrap items-center justify-between gap-1">
            <div className="flex gap-1">
              <button
                type="button"
                className="button button-ghost button-sm w-10 px-0"
                // aria-disabled rather than disabled: the button keeps focus when the photo reaches the end.
                aria-disabled={index === 0 || undefined}
                onClick={() => {
                  if (index > 0) move(index - 1, `${photo.name} moved to position ${index}.`);
                }}
                aria-label={`Move ${label.toLowerCase()} earlier`}
                title="Move earlier"
              >
                <ArrowRightIcon className="size-5 rotate-180" />
              </button>
              <button
                type="button"
                className="button button-ghost button-sm w-10 px-0"
                aria-disabled={index === count - 1 || undefined}
                onClick={() => {
                  if (index < count - 1) {
                    move(index + 1, `${photo.name} moved to position ${index + 2}.`);
                  }
                }}
                aria-label={`Move ${label.toLowerCase()} later`}
                title="Move later"
              >
                <ArrowRightIcon className="size-5" />
              </button>
            </div>
            <button
              type="button"
              className="button button-ghost button-sm px-2 text-error"
              onClick={() => {
                remove(photo.key);
                setNotice(`${photo.name} removed.`);
              }}
              aria-label={`Remove ${label.toLowerCase()}`}
            >
              Remove
            </button>
          </div>
        </div>
      </div>
    </li>
  );
}

/**
 * The car's photos: a file input (several at once) whose files upload at once, each with a
 * progress bar, then thumbnails in order with buttons to reorder them; the first is the cover.
 */
export function PhotoField({
  uploads,
  error,
  inputRef,
}: {
  uploads: Uploads;
  error?: string | undefined;
  /** For the form, to focus the input when the photos are missing. */
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement | null>(null);
  const { photos, notice, add } = uploads;
  const count = photos.filter((photo) => photo.status !== 'failed').length;
  const full = count >= MAX_LISTING_PHOTOS;
  const describedBy = [error && `${id}-error`, `${id}-hint`].filter(Boolean).join(' ');

  return (
    <fieldset>
      <legend className="field-label">Photos</legend>
      <label htmlFor={id} className="sr-only">
        Add photos
      </label>
      <input
        ref={(element) => {
          fileInput.current = element;
          if (typeof inputRef === 'function') inputRef(element);
          else if (inputRef) inputRef.current = element;
        }}
        id={id}
        type="file"
        accept={PHOTO_TYPES.join(',')}
        multiple
        disabled={full}
        className="file-input w-full"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          add(Array.from(event.target.files ?? []));
          // Let the same file be chosen again, e.g. after removing it.
          event.target.value = '';
        }}
      />
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
      <p id={`${id}-hint`} className="field-hint">
        {full
          ? `You have added ${MAX_LISTING_PHOTOS} photos, the most a car can have. Remove one to add another.`
          : `1 to ${MAX_LISTING_PHOTOS} photos: JPEG, PNG, WebP or AVIF, up to 10 MB each. The first photo is the cover.`}
      </p>
      <p role="status" className="mt-2 text-sm text-muted empty:hidden">
        {notice}
      </p>
      {photos.length > 0 && (
        <ol
          className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3"
          aria-label="Chosen photos, in order"
        >
          {photos.map((photo, index) => (
            <PhotoItem
              key={photo.key}
              photo={photo}
              index={index}
              count={photos.length}
              uploads={uploads}
            />
          ))}
        </ol>
      )}
    </fieldset>
  );
}
