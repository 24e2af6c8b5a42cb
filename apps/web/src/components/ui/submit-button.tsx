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
