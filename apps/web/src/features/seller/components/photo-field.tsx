import { MAX_LISTING_PHOTOS } from '@carmarket/shared';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type Ref,
  type RefObject,
  type SVGProps,
} from 'react';

import { ArrowRightIcon, CloseIcon, Icon } from '../../../components/ui/icons';
import { PHOTO_TYPES } from '../../../lib/upload-photo';
import type { Photo, usePhotoUploads } from '../hooks/use-photo-uploads';

type Uploads = ReturnType<typeof usePhotoUploads>;

/** Which photo's button takes focus once its move is drawn: the photo's key and the button. */
type FocusAfterMove = RefObject<{ key: string; button: 'earlier' | 'later' } | null>;

function photoLabel(index: number, cover: boolean) {
  return cover ? `Photo ${index + 1} (cover)` : `Photo ${index + 1}`;
}

/**
 * A photo's preview, or "No preview" in its place for a file the browser cannot draw (one named
 * .jpg that is no image). `named`: that stands for the picture and carries its `alt` (a photo its
 * server took).
 */
function PhotoPreview({
  photo,
  alt,
  width,
  named,
}: {
  photo: Photo;
  alt: string;
  width: number;
  named: boolean;
}) {
  const [broken, setBroken] = useState(false);
  if (!broken) {
    return (
      <img
        src={photo.previewUrl}
        alt={alt}
        className="size-full object-cover"
        width={width}
        height={(width * 3) / 4}
        onError={() => setBroken(true)}
      />
    );
  }
  return (
    <div
      className="flex size-full flex-col items-center justify-center gap-1 text-muted"
      {...(named ? { role: 'img', 'aria-label': alt } : {})}
    >
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

function StarIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <Icon {...props}>
      <path d="m12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z" />
    </Icon>
  );
}

// The buttons sit at the edges of rounded, clipped tiles: the focus ring goes inside the button.
const RING_INSIDE = 'focus-visible:outline-offset-[-3px]';

/** A 44 px target on a thumbnail, drawn as a smaller round button so the photo shows around it. */
function OverlayButton({ className, children, ...props }: ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button
      type="button"
      className={`group absolute top-0 grid size-11 cursor-pointer place-items-center focus-visible:outline-hidden ${className ?? ''}`}
      {...props}
    >
      {/* The ring goes round the white circle, so that it shows on a dark photo too. */}
      <span className="grid size-8 place-items-center rounded-full bg-base-100/90 shadow-sm group-hover:bg-base-100 group-focus-visible:bg-base-100 group-focus-visible:ring-3 group-focus-visible:ring-primary group-focus-visible:ring-offset-2 group-focus-visible:ring-offset-base-100">
        {children}
      </span>
    </button>
  );
}

/** A file that did not upload: a whole row, for its name, the reason and what can be done. */
function FailedPhotoItem({ photo, uploads }: { photo: Photo; uploads: Uploads }) {
  const { remove, retry, setNotice } = uploads;
  return (
    <li
      className="col-span-full flex gap-3 rounded-box border border-error bg-base-100 p-2"
      data-testid="photo-item"
    >
      <div className="aspect-[4/3] w-24 shrink-0 overflow-hidden rounded-field bg-base-200">
        <PhotoPreview photo={photo} alt={photo.name} width={96} named={false} />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <p className="truncate text-sm font-semibold" title={photo.name}>
          {photo.name}
        </p>
        <p className="text-xs font-medium text-error">
          {photo.retryable ? 'Not uploaded' : 'Refused'}: {photo.error}
        </p>
        <div className="mt-auto flex flex-wrap gap-2 pt-1">
          {photo.retryable && photo.file && (
            <button
              type="button"
              className="button button-outline px-3 text-sm"
              onClick={() => retry(photo.key)}
              aria-label={`Upload ${photo.name} again`}
            >
              Try again
            </button>
          )}
          <button
            type="button"
            className="button button-outline px-3 text-sm text-error"
            onClick={() => {
              remove(photo.key);
              setNotice(`${photo.name} removed.`);
            }}
            aria-label={`Remove ${photo.name}`}
          >
            Remove
          </button>
        </div>
      </div>
    </li>
  );
}

/** A thumbnail with its place in the order, its upload and 44 px buttons to move or remove it. */
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
  const { moveTo, remove, setNotice } = uploads;
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

  function move(to: number, message: string, button: 'earlier' | 'later') {
    focusAfterMove.current = { key: photo.key, button };
    moveTo(photo.key, to);
    setNotice(message);
  }

  const percent = Math.round(photo.progress * 100);
  return (
    <li
      className="flex flex-col overflow-hidden rounded-box border border-base-300 bg-base-100"
      data-testid="photo-item"
      title={photo.name}
    >
      <div className="relative aspect-[4/3] bg-base-200">
        <PhotoPreview photo={photo} alt={`${label}: ${photo.name}`} width={160} named />
        {cover ? (
          <span className="badge badge-sm badge-primary absolute top-1.5 left-1.5">Cover</span>
        ) : (
          <OverlayButton
            className="left-0 text-primary"
            onClick={() => move(0, `${photo.name} is now the cover photo.`, 'later')}
            aria-label={`Make ${label.toLowerCase()} the cover`}
            title="Make cover"
          >
            <StarIcon className="size-5" />
          </OverlayButton>
        )}
        <OverlayButton
          className="right-0 text-error"
          onClick={() => {
            remove(photo.key);
            setNotice(`${photo.name} removed.`);
          }}
          aria-label={`Remove ${label.toLowerCase()}`}
          title="Remove"
        >
          <CloseIcon className="size-5" />
        </OverlayButton>
        {photo.status === 'uploading' && (
          <div className="absolute inset-x-1.5 bottom-1.5">
            <progress
              className="progress progress-primary block h-1.5 w-full"
              value={percent}
              max={100}
              aria-label={`Uploading ${label.toLowerCase()}`}
            />
          </div>
        )}
      </div>
      <p className="truncate px-2 pt-1 text-xs">
        {photo.status === 'uploading' ? (
          <span className="text-muted">Uploading… {percent} %</span>
        ) : (
          <span className="text-success">Uploaded</span>
        )}
      </p>
      <div className="flex items-center justify-between">
        <button
          ref={earlierRef}
          type="button"
          className={`button button-ghost button-square aria-disabled:cursor-not-allowed aria-disabled:opacity-40 ${RING_INSIDE}`}
          // aria-disabled rather than disabled: the button keeps focus when the photo reaches the end.
          aria-disabled={index === 0 || undefined}
          onClick={() => {
            if (index > 0) move(index - 1, `${photo.name} moved to position ${index}.`, 'earlier');
          }}
          aria-label={`Move ${label.toLowerCase()} earlier`}
          title="Move earlier"
        >
          <ArrowRightIcon className="size-5 rotate-180" />
        </button>
        <span className="text-sm font-semibold tabular-nums" aria-hidden="true">
          {index + 1}
        </span>
        <button
          ref={laterRef}
          type="button"
          className={`button button-ghost button-square aria-disabled:cursor-not-allowed aria-disabled:opacity-40 ${RING_INSIDE}`}
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
    </li>
  );
}

/**
 * The car's photos: a file input (several at once) whose files upload at once, each with a
 * progress bar, then thumbnails in order with buttons to reorder them; the first is the cover.
 * Thumbnails at least 6.5 rem wide fill each row (three on a phone), so 20 photos stay a short list.
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
          className="mt-3 grid grid-cols-[repeat(auto-fill,minmax(6.5rem,1fr))] gap-2"
          aria-label="Chosen photos, in order"
        >
          {photos.map((photo, index) =>
            photo.status === 'failed' ? (
              <FailedPhotoItem key={photo.key} photo={photo} uploads={uploads} />
            ) : (
              <PhotoItem
                key={photo.key}
                photo={photo}
                index={index}
                count={count}
                uploads={uploads}
                focusAfterMove={focusAfterMove}
              />
            ),
          )}
        </ol>
      )}
    </fieldset>
  );
}
