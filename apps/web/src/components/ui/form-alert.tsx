import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A message about the whole form (the server refused it, or could not be reached), shown at its
 * top. It takes focus when it appears, so keyboard and screen-reader users hear it at once;
 * clear it before each submit so that the same message is announced again.
 */
export function FormAlert({
  kind = 'error',
  children,
}: {
  kind?: 'error' | 'success';
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const shown = !!children;
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);

  if (!shown) return null;
  return (
    <div
      ref={ref}
      role={kind === 'error' ? 'alert' : 'status'}
      tabIndex={-1}
      className={`alert ${kind === 'error' ? 'alert-error alert-soft' : 'alert-success alert-soft'}`}
    >
      <div>{children}</div>
    </div>
  );
}
