import { Link } from 'react-router';

import { RequireAuth } from '../../features/auth/components/require-auth';
import { useSession } from '../../features/auth/use-session';
import { usePage } from '../../lib/page';

function DashboardPage() {
  usePage({ title: 'Dashboard' });
  const { user } = useSession();

  return (
    <section className="mx-auto max-w-3xl px-4 py-16 sm:px-6 sm:py-24">
      <h1 className="text-4xl font-extrabold tracking-tight">Dashboard</h1>
      {user && <p className="mt-2 text-muted">Signed in as {user.email}</p>}
      <p className="mt-6 text-lg leading-8 text-muted">
        Your dashboard is coming soon: your orders, the cars you sell and, for administrators, the
        people who use CarMarket.
      </p>
      <Link to="/" className="button button-primary mt-8">
        Back to the home page
      </Link>
    </section>
  );
}

export default function DashboardRoute() {
  return (
    <RequireAuth>
      <DashboardPage />
    </RequireAuth>
  );
}
