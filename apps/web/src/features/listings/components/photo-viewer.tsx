import type { ListingDetail } from '@carmarket/shared';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';

import { ArrowRightIcon, CloseIcon, Icon } from '../../../components/ui/icons';
import { focusWhenShown } from '../../../lib/focus-when-shown';
import { swipeStep } from '../lib/swipe';

export type ViewerPhoto = ListingDetail['images'][number];

export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;
/** One press of + or -, and one double-tap in from the whole photo. */
const ZOOM_STEP = 1.5;
const DOUBLE_TAP_ZOOM = 2.5;
/**
 * A tap is a press lifted within TAP_MS, and a second tap that goes down within DOUBLE_TAP_MS of
 * the first one's lift, near it, makes a double-tap. Both are read from the events' own
 * timeStamps (when the finger touched), not from when the page got round to them.
 */
const TAP_MS = 500;
const DOUBLE_TAP_MS = 350;
const DOUBLE_TAP_SLOP = 40;
/** One press of an arrow key moves a zoomed photo by this share of the stage. */
const PAN_STEP = 0.1;

interface View {
  scale: number;
  x: number;
  y: number;
}

const WHOLE: View = { scale: 1, x: 0, y: 0 };

/** A point relative to the centre of `element`. */
function fromCentre(element: HTMLElement, clientX: number, clientY: number) {
  const box = element.getBoundingClientRect();
  return { x: clientX - box.left - box.width / 2, y: clientY - box.top - box.height / 2 };
}

/**
 * Keeps a zoomed photo covering the stage: it can be moved only as far as its edges reach
 * (the photo is drawn contained in the stage, at `aspect` = width / height).
 */
function clampView(view: View, stage: HTMLElement | null, aspect: number): View {
  const scale = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.scale));
  if (!stage || scale === MIN_ZOOM) return { ...WHOLE, scale };
  const width = Math.min(stage.clientWidth, stage.clientHeight * aspect);
  const height = width / aspect;
  const maxX = Math.max(0, (width * scale - stage.clientWidth) / 2);
  const maxY = Math.max(0, (height * scale - stage.clientHeight) / 2);
  return {
    scale,
    x: Math.min(maxX, Math.max(-maxX, view.x)),
    y: Math.min(maxY, Math.max(-maxY, view.y)),
  };
}

/** The view zoomed to `scale` with the point `at` (from the stage's centre) staying put. */
function zoomAround(view: View, scale: number, at: { x: number; y: number }): View {
  const next = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));
  const ratio = next / view.scale;
  return { scale: next, x: at.x - (at.x - view.x) * ratio, y: at.y - (at.y - view.y) * ratio };
}

const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

function PlusIcon() {
  return (
    <Icon className="size-6">
      <path d="M12 5v14M5 12h14" />
    </Icon>
  );
}

function MinusIcon() {
  return (
    <Icon className="size-6">
      <path d="M5 12h14" />
    </Icon>
  );
}

const ROUND_BUTTON =
  'inline-flex size-11 shrink-0 items-center justify-center rounded-full text-white aria-disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white';
const TOOLBAR_BUTTON = `${ROUND_BUTTON} bg-white/10 hover:bg-white/20 aria-disabled:hover:bg-white/10`;
/** Over the photo, which may be light: dark behind the white arrow. */
const SIDE_BUTTON = `${ROUND_BUTTON} absolute top-1/2 -translate-y-1/2 bg-black/60 hover:bg-black/80`;

/**
 * The car's photos full screen, in a modal dialog: zoom with a double-tap or double-click, a
 * pinch, the mouse wheel, the + and - buttons or keys (0 for the whole photo); move a zoomed
 * photo by dragging it or with the arrow keys; swipe, press Left and Right (on a whole photo),
 * Shift with Left or Right, or Page Up and Page Down for the other photos. Zoom changes are
 * announced in the status region. Escape or Close closes it; `onClose` gets the photo shown last. Its own chunk, loaded when first opened.
 */
export function PhotoViewer({
  photos,
  carName,
  start,
  onClose,
}: {
  photos: ViewerPhoto[];
  carName: string;
  start: number;
  onClose: (index: number) => void;
}) {
  const [index, setIndex] = useState(start);
  const [view, setView] = useState<View>(WHOLE);
  // While a finger or the mouse moves the photo, it follows at once (no easing).
  const [dragging, setDragging] = useState(false);
  const [swipeOffset, setSwipeOffset] = useState(0);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const stripRef = useRef<HTMLOListElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{
    kind: 'swipe' | 'pan' | 'pinch';
    startX: number;
    startY: number;
    startAt: number;
    view: View;
    distance: number;
    centre: { x: number; y: number };
  } | null>(null);
  const lastTap = useRef<{ at: number; x: number; y: number } | null>(null);
  const lastPointer = useRef('');
  const indexRef = useRef(index);
  indexRef.current = index;

  const count = photos.length;
  const photo = photos[index] ?? photos[0]!;
  const aspect = photo.width / photo.height || 1.5;
  const viewRef = useRef(view);
  viewRef.current = view;

  const label = `Photo ${index + 1} of ${count} of the ${carName}`;
  const hintId = useId();

  // The status region says which photo is shown, and the zoom once it settles (a wheel or a
  // pinch passes through many: only where it stops is read out).
  const [announcement, setAnnouncement] = useState(`Photo ${start + 1} of ${count}`);
  const announced = useRef({ index: start, percent: 100 });
  const percent = Math.round(view.scale * 100);
  useEffect(() => {
    if (announced.current.index !== index) {
      announced.current = { index, percent };
      setAnnouncement(`Photo ${index + 1} of ${count}`);
      return;
    }
    if (dragging || announced.current.percent === percent) return;
    const timer = setTimeout(() => {
      announced.current.percent = percent;
      setAnnouncement(percent === 100 ? 'Zoom reset' : `Zoomed to ${percent}%`);
    }, 200);
    return () => clearTimeout(timer);
  }, [index, percent, dragging, count]);

  function show(next: number) {
    setIndex(((next % count) + count) % count);
    setView(WHOLE);
    setSwipeOffset(0);
  }

  function zoomTo(scale: number, at = { x: 0, y: 0 }) {
    setView((current) => clampView(zoomAround(current, scale, at), stageRef.current, aspect));
  }

  /** Moves a zoomed photo as a drag would, `dx`, `dy` steps toward the part to see. */
  function pan(dx: number, dy: number) {
    const stage = stageRef.current;
    if (!stage) return;
    const step = Math.max(stage.clientWidth, stage.clientHeight) * PAN_STEP;
    setView((current) =>
      clampView({ ...current, x: current.x - dx * step, y: current.y - dy * step }, stage, aspect),
    );
  }

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || dialog.open) return;
    dialog.showModal();
    if (closeRef.current) focusWhenShown(closeRef.current, dialog);
  }, []);

  // The wheel zooms around the pointer; React's wheel listener is passive and cannot stop the
  // page behind from scrolling.
  useEffect(() => {
    const stage = stageRef.current;
    if (!stage) return;
    function handleWheel(event: WheelEvent) {
      event.preventDefault();
      // A trackpad pinch comes as a wheel with ctrlKey and small steps.
      const factor = Math.exp(-event.deltaY * (event.ctrlKey ? 0.01 : 0.002));
      const at = fromCentre(stage!, event.clientX, event.clientY);
      setView((current) =>
        clampView(zoomAround(current, current.scale * factor, at), stage, aspect),
      );
    }
    stage.addEventListener('wheel', handleWheel, { passive: false });
    return () => stage.removeEventListener('wheel', handleWheel);
  }, [aspect]);

  // The neighbours load ahead, so a swipe shows the next photo at once.
  useEffect(() => {
    for (const step of [1, -1]) {
      const neighbour = photos[(index + step + count) % count];
      if (neighbour && neighbour !== photo) new Image().src = neighbour.url;
    }
    const current = stripRef.current?.querySelector<HTMLElement>('[aria-current="true"]');
    current?.scrollIntoView({
      block: 'nearest',
      inline: 'nearest',
      behavior: reducedMotion() ? 'auto' : 'smooth',
    });
  }, [index, count, photo, photos]);

  function handleKeyDown(event: KeyboardEvent<HTMLDialogElement>) {
    if (event.key === 'Tab') {
      // The page behind is inert, but Tab past the last button would leave for the browser's
      // own toolbar: go round instead.
      const focusable = Array.from(
        event.currentTarget.querySelectorAll<HTMLElement>('button:not([disabled])'),
      );
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      const active = document.activeElement;
      if (event.shiftKey && (active === first || active === event.currentTarget)) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && active === last) {
        event.preventDefault();
        first?.focus();
      }
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // A zoomed photo: the arrow keys move it, as dragging does; with Shift they change photo.
    const zoomed = view.scale > MIN_ZOOM && !event.shiftKey;
    const action: Record<string, () => void> = {
      ArrowRight: () => (zoomed ? pan(1, 0) : show(index + 1)),
      ArrowLeft: () => (zoomed ? pan(-1, 0) : show(index - 1)),
      ...(zoomed && { ArrowDown: () => pan(0, 1), ArrowUp: () => pan(0, -1) }),
      PageDown: () => show(index + 1),
      PageUp: () => show(index - 1),
      '+': () => zoomTo(view.scale * ZOOM_STEP),
      '=': () => zoomTo(view.scale * ZOOM_STEP),
      '-': () => zoomTo(view.scale / ZOOM_STEP),
      _: () => zoomTo(view.scale / ZOOM_STEP),
      '0': () => setView(WHOLE),
    };
    const run = action[event.key];
    if (!run) return;
    event.preventDefault();
    run();
  }

  /** A double-tap or double-click zooms in where it was, or back out to the whole photo. */
  function toggleZoom(stage: HTMLElement, clientX: number, clientY: number) {
    if (viewRef.current.scale > MIN_ZOOM) setView(WHOLE);
    else zoomTo(DOUBLE_TAP_ZOOM, fromCentre(stage, clientX, clientY));
  }

  function handleDoubleClick(event: ReactMouseEvent<HTMLDivElement>) {
    if (lastPointer.current === 'mouse')
      toggleZoom(event.currentTarget, event.clientX, event.clientY);
  }

  function handlePointerDown(event: ReactPointerEvent<HTMLDivElement>) {
    lastPointer.current = event.pointerType;
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const stage = event.currentTarget;
    const points = [...pointers.current.values()];
    if (points.length === 2) {
      const [a, b] = points as [{ x: number; y: number }, { x: number; y: number }];
      gesture.current = {
        kind: 'pinch',
        startX: 0,
        startY: 0,
        startAt: event.timeStamp,
        view: viewRef.current,
        distance: Math.hypot(a.x - b.x, a.y - b.y) || 1,
        centre: fromCentre(stage, (a.x + b.x) / 2, (a.y + b.y) / 2),
      };
      setSwipeOffset(0);
    } else if (points.length === 1) {
      gesture.current = {
        kind: viewRef.current.scale > MIN_ZOOM ? 'pan' : 'swipe',
        startX: event.clientX,
        startY: event.clientY,
        startAt: event.timeStamp,
        view: viewRef.current,
        distance: 0,
        centre: { x: 0, y: 0 },
      };
    }
    setDragging(true);
  }

  function handlePointerMove(event: ReactPointerEvent<HTMLDivElement>) {
    if (!pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const current = gesture.current;
    if (!current) return;
    const stage = event.currentTarget;
    if (current.kind === 'pinch') {
      const [a, b] = [...pointers.current.values()];
      if (!a || !b) return;
      const scale = (current.view.scale * Math.hypot(a.x - b.x, a.y - b.y)) / current.distance;
      const centre = fromCentre(stage, (a.x + b.x) / 2, (a.y + b.y) / 2);
      // Zoom about where the fingers started, then follow them as they move together.
      const zoomed = zoomAround(current.view, scale, current.centre);
      setView(
        clampView(
          {
            ...zoomed,
            x: zoomed.x + centre.x - current.centre.x,
            y: zoomed.y + centre.y - current.centre.y,
          },
          stage,
          aspect,
        ),
      );
    } else if (current.kind === 'pan') {
      setView(
        clampView(
          {
            ...current.view,
            x: current.view.x + event.clientX - current.startX,
            y: current.view.y + event.clientY - current.startY,
          },
          stage,
          aspect,
        ),
      );
    } else if (count > 1) {
      setSwipeOffset(event.clientX - current.startX);
    }
  }

  function handlePointerEnd(event: ReactPointerEvent<HTMLDivElement>, cancelled: boolean) {
    if (!pointers.current.delete(event.pointerId)) return;
    const current = gesture.current;
    const left = [...pointers.current.entries()][0];
    if (current?.kind === 'pinch') {
      // One finger stays on the glass: it goes on moving the photo from where it is.
      gesture.current = left
        ? {
            kind: 'pan',
            startX: left[1].x,
            startY: left[1].y,
            startAt: event.timeStamp,
            view: viewRef.current,
            distance: 0,
            centre: { x: 0, y: 0 },
          }
        : null;
      lastTap.current = null;
      if (!left) setDragging(false);
      return;
    }
    gesture.current = null;
    setDragging(false);
    setSwipeOffset(0);
    if (!current || cancelled) return;
    const dx = event.clientX - current.startX;
    const dy = event.clientY - current.startY;
    const step = current.kind === 'swipe' ? swipeStep(dx, dy) : 0;
    if (step) {
      lastTap.current = null;
      show(indexRef.current + step);
      return;
    }
    // A mouse's double-click is the browser's to recognise (handleDoubleClick).
    if (event.pointerType === 'mouse') return;
    const tap = Math.hypot(dx, dy) < 10 && event.timeStamp - current.startAt < TAP_MS;
    if (!tap) {
      lastTap.current = null;
      return;
    }
    const previous = lastTap.current;
    // From the first tap's lift to the second's touch, by the events' own clocks.
    const gap = previous ? current.startAt - previous.at : Infinity;
    if (
      previous &&
      gap >= 0 &&
      gap < DOUBLE_TAP_MS &&
      Math.hypot(current.startX - previous.x, current.startY - previous.y) < DOUBLE_TAP_SLOP
    ) {
      lastTap.current = null;
      toggleZoom(event.currentTarget, event.clientX, event.clientY);
    } else {
      lastTap.current = { at: event.timeStamp, x: event.clientX, y: event.clientY };
    }
  }

  const atMost = view.scale >= MAX_ZOOM;
  const atLeast = view.scale <= MIN_ZOOM;

  return (
    <dialog
      ref={dialogRef}
      aria-label={`Photos of the ${carName}`}
      aria-describedby={hintId}
      aria-modal="true"
      className="m-0 size-full max-h-none max-w-none overscroll-contain bg-neutral-950 p-0 text-white backdrop:bg-black"
      onClose={() => onClose(indexRef.current)}
      onKeyDown={handleKeyDown}
    >
      <div className="flex h-full flex-col">
        <div className="flex items-center gap-2 p-2 sm:p-3">
          <p className="px-2 text-sm font-semibold tabular-nums" data-testid="photo-counter">
            {index + 1} of {count}
          </p>
          <div className="ml-auto flex items-center gap-2">
            <button
              type="button"
              className={TOOLBAR_BUTTON}
              aria-label="Zoom out"
              aria-disabled={atLeast || undefined}
              onClick={() => zoomTo(view.scale / ZOOM_STEP)}
            >
              <MinusIcon />
            </button>
            <button
              type="button"
              className={TOOLBAR_BUTTON}
              aria-label="Zoom in"
              aria-disabled={atMost || undefined}
              onClick={() => zoomTo(view.scale * ZOOM_STEP)}
            >
              <PlusIcon />
            </button>
            <button
              ref={closeRef}
              type="button"
              className={TOOLBAR_BUTTON}
              aria-label="Close"
              onClick={() => dialogRef.current?.close()}
            >
              <CloseIcon className="size-6" />
            </button>
          </div>
        </div>
        <div className="relative min-h-0 flex-1">
          <div
            ref={stageRef}
            className="absolute inset-0 cursor-grab touch-none overflow-hidden select-none active:cursor-grabbing"
            onPointerDown={handlePointerDown}
            onPointerMove={handlePointerMove}
            onPointerUp={(event) => handlePointerEnd(event, false)}
            onPointerCancel={(event) => handlePointerEnd(event, true)}
            onDoubleClick={handleDoubleClick}
          >
            <img
              key={photo.url}
              src={photo.url}
              width={photo.width}
              height={photo.height}
              alt={label}
              draggable={false}
              decoding="async"
              data-scale={view.scale}
              className={`size-full object-contain ${dragging ? '' : 'motion-safe:transition-transform motion-safe:duration-200'}`}
              style={{
                transform: `translate(${view.x + swipeOffset}px, ${view.y}px) scale(${view.scale})`,
              }}
            />
          </div>
          {count > 1 && (
            <>
              <button
                type="button"
                className={`${SIDE_BUTTON} left-2 sm:left-4`}
                aria-label="Previous photo"
                onClick={() => show(index - 1)}
              >
                <ArrowRightIcon className="size-6 rotate-180" />
              </button>
              <button
                type="button"
                className={`${SIDE_BUTTON} right-2 sm:right-4`}
                aria-label="Next photo"
                onClick={() => show(index + 1)}
              >
                <ArrowRightIcon className="size-6" />
              </button>
            </>
          )}
        </div>
        {count > 1 && (
          <ol
            ref={stripRef}
            aria-label="Choose a photo"
            className="flex gap-2 overflow-x-auto overscroll-contain p-2 justify-center-safe sm:p-3"
          >
            {photos.map((thumb, position) => (
              <li key={thumb.url} className="shrink-0">
                <button
                  type="button"
                  aria-label={`Show photo ${position + 1} of ${count}`}
                  aria-current={position === index ? 'true' : undefined}
                  className={`block overflow-hidden rounded-md border-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white ${position === index ? 'border-white' : 'border-transparent opacity-70 hover:opacity-100'}`}
                  onClick={() => show(position)}
                >
                  <img
                    src={thumb.thumbUrl}
                    width={72}
                    height={48}
                    alt=""
                    loading="lazy"
                    decoding="async"
                    className="h-12 w-18 object-cover"
                  />
                </button>
              </li>
            ))}
          </ol>
        )}
        <p id={hintId} className="sr-only">
          Plus and minus zoom in and out, 0 shows the whole photo. On a zoomed photo the arrow keys
          move it; Shift with Left or Right, or Page Up and Page Down, show the other photos.
        </p>
        <p role="status" className="sr-only">
          {announcement}
        </p>
      </div>
    </dialog>
  );
}
