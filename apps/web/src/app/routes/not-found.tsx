import '../../public-pages.css';

import { Link, useLocation } from 'react-router';

import { usePage } from '../../lib/page';

/** The not-found message; also used by pages whose item does not exist. */
export function NotFound({ what }: { what?: string }) {
  const { pathname } = useLocation();
  return (
    <section className="mx-auto max-w-2xl px-4 py-16 text-center sm:px-6 sm:py-24">
      <p className="text-sm font-semibold tracking-wide text-secondary uppercase">Error 404</p>
      <h1 className="mt-3 text-4xl font-extrabold tracking-tight sm:text-5xl">Page not found</h1>
      <p className="mt-5 text-lg leading-8 text-muted">
        We could not find{' '}
        {what ?? (
          <code className="rounded-lg bg-base-200 px-1.5 py-0.5 text-base break-all">
            {pathname}
          </code>
        )}
        . The link may be mistyped, or the page may have moved.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className="button button-primary">
          Go to the home page
        </Link>
        <Link to="/blog" className="button button-outline">
          Read the blog
        </Link>
      </div>
    </section>
  );
}

export default function NotFoundRoute() {
  usePage({ title: 'Page not found' });
  return <NotFound />;
}
