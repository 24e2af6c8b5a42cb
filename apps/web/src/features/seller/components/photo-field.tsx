import { MAX_LISTING_PHOTOS } from '@carmarket/shared';
import { useEffect, useId, useRef, useState, type Ref, type RefObject } from 'react';

import { ArrowRightIcon } from '../../../components/ui/icons';
import { PHOTO_TYPES } from '../../../lib/upload-photo';
import type { Photo, usePhotoUploads } from '../hooks/use-photo-uploads';

type Uploads = ReturnType<typeof usePhotoUploads>;

/** Which photo's button takes focus once its move is drawn: the photo's key and the button. */
type FocusAfterMove = RefObject<{ key: string; button: 'earlier' | 'later' } | null>;

function photoLabel(index: number, cover: boolean) {
  return cover ? `Photo ${index + 1} (cover)` : `Photo ${index + 1}`;
}

/** In place of a preview the browser cannot draw: a file that is not an image after all. */
function NoPreview() {
  return (
    <div className="flex size-full flex-col items-center justify-center gap-1 text-muted">
      <svg
        viewBox="0 0 24 24"
        className="size-10"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.5}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
      >
        <path d="M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9z" />
        <path d="M14 3v6h6M9.5 13.5l5 5M14.5 13.5l-5 5" />
      </svg>
      <span className="text-xs">No preview</span>
    </div>
  );
}

function PhotoItem({
  photo,
  index,
  count,
  uploads,
  focusAfterMove,
}: {
  photo: Photo;
  index: number;
  /** How many photos have not failed: they come first, in the car's order. */
  count: number;
  uploads: Uploads;
  focusAfterMove: FocusAfterMove;
}) {
  const cover = uploads.coverKey === photo.key;
  const label = photoLabel(index, cover);
  const { moveTo, remove, retry, setNotice } = uploads;
  const failed = photo.status === 'failed';
  // A file named .jpg that is no image: the browser shows a broken picture; show why instead.
  const [previewBroken, setPreviewBroken] = useState(false);
  const earlierRef = useRef<HTMLButtonElement>(null);
  const laterRef = useRef<HTMLButtonElement>(null);
  // A moved item is taken out of the list and put back, which drops the focus of its button (and
  // Make cover goes away on the cover): the button goes on with the photo, to move it again.
  useEffect(() => {
    const pending = focusAfterMove.current;
    if (pending?.key !== photo.key) return;
    focusAfterMove.current = null;
    (pending.button === 'earlier' ? earlierRef : laterRef).current?.focus();
  });

  function handleRemove() {
    remove(photo.key);
    setNotice(`${photo.name} removed.`);
  }

  function move(to: number, message: string, button: 'earlier' | 'later') {
    focusAfterMove.current = { key: photo.key, button };
    moveTo(photo.key, to);
    setNotice(message);
  }

  return (
    <li
      className={`flex flex-col overflow-hidden rounded-box border bg-base-100 ${failed ? 'border-error' : 'border-base-300'}`}
      data-testid="photo-item"
    >
      <div className="relative aspect-[4/3] bg-base-200">
        {previewBroken ? (
          <NoPreview />
        ) : (
          <img
            src={photo.previewUrl}
            alt={`${label}: ${photo.name}`}
            className="size-full object-cover"
            width={320}
            height={240}
            onError={() => setPreviewBroken(true)}
          />
        )}
        {cover && <span className="badge badge-sm badge-primary absolute top-2 left-2">Cover</span>}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3">
        <p className="truncate text-sm font-semibold" title={photo.name}>
          {failed || previewBroken ? photo.name : label}
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
        {failed && (
          <p className="text-xs font-medium text-error">
            {photo.retryable ? 'Not uploaded' : 'Refused'}: {photo.error}
          </p>
        )}
        <div className="mt-auto grid gap-2">
          {failed && photo.retryable && photo.file && (
            <button
              type="button"
              className="button button-outline button-sm w-full"
              onClick={() => retry(photo.key)}
              aria-label={`Upload ${photo.name} again`}
            >
              Try again
            </button>
          )}
          {failed && (
            <button
              type="button"
              className="button button-outline button-sm w-full text-error"
              onClick={handleRemove}
              aria-label={`Remove ${photo.name}`}
            >
              Remove
            </button>
          )}
          {!failed && !cover && (
            <button
              type="button"
              className="button button-outline button-sm w-full"
              onClick={() => move(0, `${photo.name} is now the cover photo.`, 'later')}
              aria-label={`Make ${label.toLowerCase()} the cover`}
            >
              Make cover
            </button>
          )}
          {!failed && (
            <div className="flex flex-wrap items-center justify-between gap-1">
              <div className="flex gap-1">
                <button
                  ref={earlierRef}
                  type="button"
                  className="button button-ghost button-sm w-10 px-0"
                  // aria-disabled rather than disabled: the button keeps focus when the photo reaches the end.
                  aria-disabled={index === 0 || undefined}
                  onClick={() => {
                    if (index > 0) {
                      move(index - 1, `${photo.name} moved to position ${index}.`, 'earlier');
                    }
                  }}
                  aria-label={`Move ${label.toLowerCase()} earlier`}
                  title="Move earlier"
                >
                  <ArrowRightIcon className="size-5 rotate-180" />
                </button>
                <button
                  ref={laterRef}
                  type="button"
                  className="button button-ghost button-sm w-10 px-0"
                  aria-disabled={index === count - 1 || undefined}
                  onClick={() => {
                    if (index < count - 1) {
                      move(index + 1, `${photo.name} moved to position ${index + 2}.`, 'later');
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
                onClick={handleRemove}
                aria-label={`Remove ${label.toLowerCase()}`}
              >
                Remove
              </button>
            </div>
          )}
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
  const focusAfterMove: FocusAfterMove = useRef(null);
  const { photos, notice, notAdded, add, uploadingCount } = uploads;
  // Counts the uploads still running, so it drops as each one ends, then what last happened.
  const status = [
    uploadingCount > 0 &&
      `Uploading ${uploadingCount} ${uploadingCount === 1 ? 'photo' : 'photos'}.`,
    notice,
  ]
    .filter(Boolean)
    .join(' ');
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
      {/* Stays in view while the others upload (the status below moves on to their count). */}
      {notAdded && <p className="field-error">{notAdded}</p>}
      <p role="status" className="mt-2 text-sm text-muted empty:hidden">
        {status}
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
              count={count}
              uploads={uploads}
              focusAfterMove={focusAfterMove}
            />
          ))}
        </ol>
      )}
    </fieldset>
  );
}
