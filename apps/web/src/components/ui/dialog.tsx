import { useEffect, useId, useRef, type ReactNode } from 'react';

import { focusWhenShown } from '../../lib/focus-when-shown';

/**
 * A modal dialog on the native `<dialog>`: the browser keeps focus inside it, closes it on
 * Escape and returns focus to the button that opened it. Bottom sheet on phones, centred above.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  wide = false,
  busy = false,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  /** For forms: a wider box. */
  wide?: boolean;
  /** While true, Escape does not close it (something is being saved). */
  busy?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (!open) {
      if (dialog.open) dialog.close();
      return;
    }
    if (!dialog.open) dialog.showModal();
    // The browser would focus the scrolling box; start at the marked control, else the title.
    const marked = () => dialog.querySelector<HTMLElement>('[data-autofocus]');
    const control = marked();
    if (control) return focusWhenShown(control, dialog);
    const title = dialog.querySelector<HTMLElement>('h2');
    let stop = title ? focusWhenShown(title, dialog) : () => {};
    // Contents still loading (a form in a chunk of its own): its marked control takes focus when
    // it arrives, unless the person has moved on from the title meanwhile.
    const arrival = new MutationObserver(() => {
      const arrived = marked();
      if (!arrived) return;
      arrival.disconnect();
      stop();
      const focused = document.activeElement;
      if (focused === document.body || focused === dialog || focused === title) {
        stop = focusWhenShown(arrived, [dialog, title]);
      }
    });
    arrival.observe(dialog, { childList: true, subtree: true });
    return () => {
      arrival.disconnect();
      stop();
    };
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="modal modal-bottom sm:modal-middle"
      aria-labelledby={`${id}-title`}
      aria-describedby={description ? `${id}-description` : undefined}
      onClose={onClose}
      onCancel={(event) => {
        if (busy) event.preventDefault();
      }}
    >
      {open && (
        <div className={`modal-box ${wide ? 'sm:max-w-2xl' : ''}`}>
          <h2 id={`${id}-title`} tabIndex={-1} className="text-xl font-bold">
            {title}
          </h2>
          {description && (
            <div id={`${id}-description`} className="mt-3 leading-7 text-muted">
              {description}
            </div>
          )}
          <div className="mt-5">{children}</div>
        </div>
      )}
    </dialog>
  );
}

/**
 * A question with a confirming button and Cancel; the confirming button shows progress. Fields
 * the answer needs (a reason to give) go in `children`, above the buttons.
 */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  busyLabel,
  busy,
  danger = false,
  error,
  children,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  /** The button that closes it and changes nothing. */
  cancelLabel?: string;
  busyLabel: string;
  busy: boolean;
  danger?: boolean;
  /** Why the last attempt failed, shown above the buttons. */
  error?: string | null | undefined;
  children?: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description} busy={busy}>
      {children && <div className="mb-5">{children}</div>}
      {error && (
        <p role="alert" className="alert alert-error alert-soft mb-4">
          {error}
        </p>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button
          type="button"
          className="button button-outline"
          onClick={onClose}
          disabled={busy}
          data-autofocus
        >
          {cancelLabel}
        </button>
        <button
          type="button"
          className={`button ${danger ? 'bg-error text-error-content hover:bg-error/90' : 'button-primary'}`}
          onClick={onConfirm}
          disabled={busy}
          aria-busy={busy || undefined}
        >
          {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
          {busy ? busyLabel : confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
