import type { ReactNode } from 'react';

/** The form's main button: disabled, with a spinner and `busyLabel`, while the form is sent. */
export function SubmitButton({
  busy,
  busyLabel,
  className = 'w-full',
  children,
}: {
  busy: boolean;
  busyLabel: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      className={`button button-primary ${className}`}
      disabled={busy}
      aria-busy={busy || undefined}
    >
      {busy && <span className="loading loading-spinner loading-sm" aria-hidden="true" />}
      {busy ? busyLabel : children}
    </button>
  );
}

/** A dialog form's Cancel and submit buttons: side by side on the right, stacked on phones. */
export function FormActions({
  busy,
  onCancel,
  children,
}: {
  busy: boolean;
  onCancel: () => void;
  /** The submit button's label. */
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <button type="button" className="button button-outline" onClick={onCancel} disabled={busy}>
        Cancel
      </button>
      <SubmitButton busy={busy} busyLabel="Saving…" className="">
        {children}
      </SubmitButton>
    </div>
  );
}
