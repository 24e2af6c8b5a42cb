import { Link, useLocation } from 'react-router';

import { safeNextPath } from '../../features/auth/login-path';
import { usePage } from '../../lib/page';

export default function LoginRoute() {
  usePage({
    title: 'Sign in',
    description: 'Sign in to book cars, sell yours and see your orders.',
  });
  // Where to go after signing in: read now so the sign-in form can use it when it arrives.
  const next = safeNextPath(new URLSearchParams(useLocation().search).get('next'));

  return (
    <section className="mx-auto max-w-xl px-4 py-16 sm:px-6 sm:py-24">
      <div className="rounded-box border border-base-300 bg-base-100 p-8 card-shadow">
        <h1 className="text-3xl font-extrabold tracking-tight">Sign in to CarMarket</h1>
        <p className="mt-4 text-lg leading-8 text-muted">Sign-in is coming soon.</p>
        <p className="mt-2 leading-7 text-muted">
          We are finishing accounts for buyers and sellers.{' '}
          {next
            ? 'Once it is ready, you will come straight back to the page you were looking for after signing in.'
            : 'Once it is ready, you can book cars, sell yours and follow your orders here.'}
        </p>
        {next && (
          <p className="mt-4 rounded-lg bg-base-200 px-4 py-3 text-sm">
            You will return to <code className="break-all">{next}</code>
          </p>
        )}
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to="/" className="button button-primary">
            Back to the home page
          </Link>
          <Link to="/blog/how-to-inspect-a-used-car" className="button button-ghost">
            How to inspect a used car
          </Link>
        </div>
      </div>
    </section>
  );
}
