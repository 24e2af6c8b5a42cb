import type { ReactNode } from 'react';

/**
 * One figure of a dashboard page (the home's, a seller's balance): its label, its value, and a
 * line under it; in a `<dl>` such as `Figures`.
 */
export function Figure({
  label,
  value,
  hint,
}: {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
}) {
  return (
    <div className="min-w-0 rounded-box border border-base-300 bg-base-100 p-4 sm:p-5">
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight break-words sm:text-3xl">{value}</dd>
      {hint && <dd className="mt-1 text-sm text-muted">{hint}</dd>}
    </div>
  );
}

export function Figures({
  columns = 'xl:grid-cols-4',
  children,
}: {
  /** How many a row on wider screens (two on phones). */
  columns?: string;
  children: ReactNode;
}) {
  return <dl className={`grid grid-cols-2 gap-3 sm:gap-4 ${columns}`}>{children}</dl>;
}
