import type { ReactNode } from 'react';

/** A dashboard page that is not built yet: its title and what it will show. */
export function ComingSoon({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby="page-title" className="max-w-3xl">
      <h1 id="page-title" className="text-3xl font-extrabold tracking-tight">
        {title}
      </h1>
      <div className="mt-6 rounded-box border border-dashed border-base-300 bg-base-200 p-6">
        <p className="font-semibold">Coming soon</p>
        <p className="mt-2 leading-7 text-muted">{children}</p>
      </div>
    </section>
  );
}
