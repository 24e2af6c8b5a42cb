import type { ListingDetail } from '@carmarket/shared';
import { useState, type KeyboardEvent } from 'react';

/**
 * The car's photos: the chosen one large, the others as thumbnails below. Thumbnails are
 * buttons (Tab, then Enter or Space); the arrow keys move between them as well.
 */
export function ListingGallery({
  listing,
}: {
  listing: Pick<ListingDetail, 'name' | 'images' | 'img'>;
}) {
  const [index, setIndex] = useState(0);
  const photos =
    listing.images.length > 0
      ? listing.images
      : listing.img
        ? [{ url: listing.img, thumbUrl: listing.img, width: 960, height: 640 }]
        : [];
  const shown = photos[Math.min(index, photos.length - 1)];

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const next = (index + step + photos.length) % photos.length;
    setIndex(next);
    event.currentTarget.querySelectorAll('button')[next]?.focus();
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
      <img
        src={shown.url}
        width={shown.width}
        height={shown.height}
        alt={`Photo ${index + 1} of ${photos.length} of the ${listing.name}`}
        fetchPriority="high"
        decoding="async"
        className="aspect-[3/2] w-full rounded-box bg-base-200 object-cover"
      />
      {photos.length > 1 && (
        <div
          role="group"
          aria-label="Choose a photo"
          className="mt-3 grid grid-cols-4 gap-2 sm:grid-cols-6"
          onKeyDown={handleKeyDown}
        >
          {photos.map((photo, position) => (
            <button
              key={photo.url}
              type="button"
              aria-pressed={position === index}
              aria-label={`Show photo ${position + 1} of ${photos.length}`}
              className={`overflow-hidden rounded-lg border-2 ${position === index ? 'border-primary' : 'border-transparent hover:border-base-300'}`}
              onClick={() => setIndex(position)}
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
    </div>
  );
}
