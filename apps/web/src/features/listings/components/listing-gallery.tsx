import type { ListingDetail } from '@carmarket/shared';
import {
  lazy,
  Suspense,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';

import { Icon } from '../../../components/ui/icons';
import { swipeStep } from '../lib/swipe';

// The full-screen viewer is its own chunk: it loads when the pointer or focus reaches the photo,
// or on the first open, not with every car page.
const loadViewer = () => import('./photo-viewer');
const PhotoViewer = lazy(() => loadViewer().then((module) => ({ default: module.PhotoViewer })));

/**
 * The car's photos: the chosen one large, the others as thumbnails below. Thumbnails are
 * buttons in one tab stop, the shown photo's (a roving tabindex): the arrow keys, Home and End
 * move between them, Enter or Space shows one. A swipe on the
 * large photo shows the next or previous one; a click or tap on it opens the full-screen viewer.
 */
export function ListingGallery({
  listing,
}: {
  listing: Pick<ListingDetail, 'name' | 'images' | 'img'>;
}) {
  const [index, setIndex] = useState(0);
  const [viewing, setViewing] = useState(false);
  const openerRef = useRef<HTMLButtonElement>(null);
  const swipe = useRef<{ x: number; y: number; id: number } | null>(null);
  // A mouse drag ends in a click on the photo: that click must not open the viewer.
  const swiped = useRef(false);
  const photos =
    listing.images.length > 0
      ? listing.images
      : listing.img
        ? [{ url: listing.img, thumbUrl: listing.img, width: 960, height: 640 }]
        : [];
  const position = Math.min(index, photos.length - 1);
  const shown = photos[position];

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const last = photos.length - 1;
    const to = {
      ArrowRight: position + 1,
      ArrowDown: position + 1,
      ArrowLeft: position - 1,
      ArrowUp: position - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    const next = (to + photos.length) % photos.length;
    setIndex(next);
    event.currentTarget.querySelectorAll('button')[next]?.focus();
  }

  function handlePointerDown(event: ReactPointerEvent<HTMLDivElement>) {
    swiped.current = false;
    if (event.isPrimary)
      swipe.current = { x: event.clientX, y: event.clientY, id: event.pointerId };
  }

  function handlePointerUp(event: ReactPointerEvent<HTMLDivElement>) {
    const start = swipe.current;
    swipe.current = null;
    if (!start || start.id !== event.pointerId || photos.length < 2) return;
    const step = swipeStep(event.clientX - start.x, event.clientY - start.y);
    if (!step) return;
    swiped.current = true;
    setIndex((index + step + photos.length) % photos.length);
  }

  if (!shown) {
    return (
      <div className="flex aspect-[3/2] w-full items-center justify-center rounded-box bg-base-200 text-muted">
        No photos yet
      </div>
    );
  }

  return (
    <div>
      {/* Sideways swipes are the page's to handle (touch-action: pan-y); up and down still scroll. */}
      <div
        className="relative touch-pan-y"
        onPointerDown={handlePointerDown}
        onPointerUp={handlePointerUp}
        onPointerCancel={() => (swipe.current = null)}
      >
        <img
          src={shown.url}
          width={shown.width}
          height={shown.height}
          alt={`Photo ${position + 1} of ${photos.length} of the ${listing.name}`}
          fetchPriority="high"
          decoding="async"
          draggable={false}
          className="aspect-[3/2] w-full rounded-box bg-base-200 object-cover select-none"
        />
        <button
          ref={openerRef}
          type="button"
          className="peer absolute inset-0 cursor-zoom-in rounded-box focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary"
          aria-label={`View photo ${position + 1} of ${photos.length} full screen`}
          aria-haspopup="dialog"
          onPointerEnter={() => void loadViewer()}
          onFocus={() => void loadViewer()}
          onClick={() => {
            if (swiped.current) swiped.current = false;
            else setViewing(true);
          }}
        />
        {/* Beside the button, not in it: its name says the same in words, and a name that leaves
            out text shown on the button confuses speech input ("click 1 of 3"); "of", as the viewer counts. */}
        <span
          aria-hidden="true"
          className="pointer-events-none absolute right-3 bottom-3 flex items-center gap-1.5 rounded-full bg-black/70 px-3 py-1 text-sm font-semibold text-white tabular-nums peer-hover:bg-black/85"
        >
          <Icon className="size-4">
            <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
          </Icon>
          {position + 1} of {photos.length}
        </span>
      </div>
      {photos.length > 1 && (
        <div
          role="group"
          aria-label="Choose a photo"
          // On a phone one row that scrolls sideways (20 photos would push the car's details far
          // down); from sm up, a grid.
          className="mt-3 flex gap-2 overflow-x-auto pb-1 sm:grid sm:grid-cols-6 sm:overflow-visible sm:pb-0"
          onKeyDown={handleKeyDown}
        >
          {photos.map((photo, thumb) => (
            <button
              key={photo.url}
              type="button"
              aria-pressed={thumb === position}
              tabIndex={thumb === position ? 0 : -1}
              aria-label={`Show photo ${thumb + 1} of ${photos.length}`}
              className={`w-[21%] shrink-0 overflow-hidden rounded-lg border-2 sm:w-auto ${thumb === position ? 'border-primary' : 'border-transparent hover:border-base-300'}`}
              onClick={() => setIndex(thumb)}
            >
              <img
                src={photo.thumbUrl}
                width={160}
                height={107}
                alt=""
                loading="lazy"
                decoding="async"
                className="aspect-[3/2] w-full object-cover"
              />
            </button>
          ))}
        </div>
      )}
      {viewing && (
        <Suspense fallback={null}>
          <PhotoViewer
            photos={photos}
            carName={listing.name}
            start={position}
            onClose={(last) => {
              setIndex(last);
              setViewing(false);
              openerRef.current?.focus();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
