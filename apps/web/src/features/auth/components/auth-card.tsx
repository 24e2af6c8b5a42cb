import '../../../app-pages.css';

import type { ReactNode } from 'react';

/** The frame of the account pages (sign in, register, passwords): a titled card. */
export function AuthCard({
  title,
  intro,
  children,
  footer,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  /** Below the card, e.g. the link between sign-in and register. */
  footer?: ReactNode;
}) {
  return (
    <section className="mx-auto max-w-md px-4 py-12 sm:py-16">
      <div className="rounded-box border border-base-300 bg-base-100 p-6 card-shadow sm:p-8">
        <h1 className="text-3xl font-extrabold tracking-tight">{title}</h1>
        {intro && <p className="mt-2 leading-7 text-muted">{intro}</p>}
        <div className="mt-6">{children}</div>
      </div>
      {footer && <p className="mt-6 text-center text-muted">{footer}</p>}
    </section>
  );
}
