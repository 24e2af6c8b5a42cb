import type { ReactNode } from 'react';

/** One part of the settings page: a card with its heading (an h2) and what it is for. */
export function SettingsSection({
  id,
  title,
  intro,
  tone = 'plain',
  children,
}: {
  /** Also the address of the part (`#delete` opens the page at leaving). */
  id: string;
  title: string;
  intro?: ReactNode;
  tone?: 'plain' | 'danger';
  children: ReactNode;
}) {
  return (
    <section
      id={id}
      aria-labelledby={`${id}-title`}
      className={`scroll-mt-24 rounded-box border bg-base-100 p-5 card-shadow sm:p-6 ${tone === 'danger' ? 'border-error' : 'border-base-300'}`}
    >
      <h2 id={`${id}-title`} tabIndex={-1} className="text-xl font-bold">
        {title}
      </h2>
      {intro && <div className="mt-1 max-w-2xl leading-7 text-muted">{intro}</div>}
      <div className="mt-5">{children}</div>
    </section>
  );
}
