import type { CSSProperties, MouseEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { ToastContainer, toast, type ToastContentProps } from 'react-toastify';

import type { ToastAction, ToastKind } from './toast';

const CLOSE_AFTER_MS = 5000;
/** Toasts with a button stay longer, so there is time to reach it. */
const ACTION_CLOSE_AFTER_MS = 8000;

/** react-toastify's own font and grey text (its CSS variables), replaced by the site's. */
const siteLook = {
  top: '4.75rem',
  '--toast-close-after': `${CLOSE_AFTER_MS}ms`,
  '--toastify-font-family': 'var(--font-sans)',
  '--toastify-text-color-light': 'var(--color-base-content)',
} as CSSProperties;

/**
 * react-toastify closes a toast when its progress bar's animation ends, and the site's
 * reduced-motion rule (index.css) cuts every animation to 0.01 ms: without this, a person who
 * asked for less motion would see each toast vanish at once. In index.css's layer: an important
 * rule in a layer beats every important rule outside layers, whatever their specificity.
 */
const KEEP_TOASTS_FOR_REDUCED_MOTION =
  '@layer base{@media (prefers-reduced-motion: reduce){#notifications ' +
  '.Toastify__progress-bar--animated{animation-duration:var(--toast-close-after)!important}}}';

function mountContainer(): void {
  const keep = document.createElement('style');
  keep.textContent = KEEP_TOASTS_FOR_REDUCED_MOTION;
  document.head.append(keep);
  const host = document.createElement('div');
  host.id = 'notifications';
  document.body.append(host);
  // The spec's settings (section 9): top-right, 5 s, pause on hover and on focus loss, close on
  // click, draggable away at 80 % of the width. Below the sticky site header (4rem), so a toast
  // never covers its links, e.g. Sign in right after "You are signed out".
  createRoot(host).render(
    <ToastContainer
      style={siteLook}
      position="top-right"
      autoClose={CLOSE_AFTER_MS}
      pauseOnHover
      pauseOnFocusLoss
      closeOnClick
      draggable
      draggablePercent={80}
      newestOnTop
      theme="light"
    />,
  );
}

// Toasts sent before the container has mounted are queued by react-toastify and shown once it has.
if (typeof document !== 'undefined') mountContainer();

/** A toast with a button (or link): it waits while focus is on it (Alt+T takes focus there). */
function ActionToast({
  message,
  action,
  closeToast,
  toastProps,
}: ToastContentProps & { message: string; action: ToastAction }) {
  const id = toastProps.toastId;
  function handleClick(event: MouseEvent) {
    // A link opened in a new tab or window is left to the browser.
    if (action.href && (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey)) {
      return;
    }
    event.preventDefault();
    action.onClick();
    closeToast();
  }
  const className = 'button button-outline button-sm shrink-0';
  return (
    <div
      className="flex items-center gap-3"
      onFocus={() => toast.pause({ id })}
      onBlur={() => toast.play({ id })}
    >
      <span className="min-w-0 flex-1">{message}</span>
      {action.href ? (
        <a href={action.href} className={className} onClick={handleClick}>
          {action.label}
        </a>
      ) : (
        <button type="button" className={className} onClick={handleClick}>
          {action.label}
        </button>
      )}
    </div>
  );
}

export function showToast(kind: ToastKind, message: string, action?: ToastAction): void {
  if (action) {
    toast((props) => <ActionToast {...props} message={message} action={action} />, {
      type: kind,
      autoClose: ACTION_CLOSE_AFTER_MS,
      // Its button closes it; a click beside the button or a drag must not take Undo away.
      closeOnClick: false,
      draggable: false,
      style: { '--toast-close-after': `${ACTION_CLOSE_AFTER_MS}ms` } as CSSProperties,
    });
  } else if (kind === 'default') toast(message);
  else toast[kind](message);
}
