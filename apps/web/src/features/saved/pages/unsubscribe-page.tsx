import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { errorMessage } from '../../../lib/api-client';
import { useUnsubscribe } from '../api/unsubscribe';

function Outcome({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
      <div className="mt-4 text-lg leading-8 text-muted">{children}</div>
    </>
  );
}

/**
 * `/unsubscribe?token=`: the link at the foot of an alert mail. Sends the token once on arrival
 * (no sign-in needed) and says what was turned off, or why the link did not work.
 */
export function UnsubscribePage({ token }: { token: string | null }) {
  const { result, error } = useUnsubscribe(token);

  let outcome;
  if (!token) {
    outcome = (
      <Outcome title="This link is not complete">
        <p>Open this page from the link at the foot of the email.</p>
      </Outcome>
    );
  } else if (error) {
    outcome = (
      <Outcome title="This link did not work">
        <p>{errorMessage(error)}</p>
      </Outcome>
    );
  } else if (result) {
    outcome = (
      <Outcome title="You’re unsubscribed">
        <p>You’re unsubscribed from {result.what}. We will not email you about it again.</p>
        <p className="mt-3">
          Changed your mind? Turn alerts back on in{' '}
          <Link to="/dashboard/searches" className="text-link">
            your saved searches
          </Link>
          .
        </p>
      </Outcome>
    );
  } else {
    outcome = <p className="text-lg text-muted">Unsubscribing…</p>;
  }

  return (
    <section className="mx-auto max-w-2xl px-4 py-16 text-center sm:px-6 sm:py-24">
      <div aria-live="polite">{outcome}</div>
      <Link to="/" className="button button-primary mt-8">
        Go to the home page
      </Link>
    </section>
  );
}
