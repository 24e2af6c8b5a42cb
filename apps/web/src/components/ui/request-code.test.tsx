import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { api, ApiError } from '../../lib/api-client';
import { renderWithApp } from '../../testing/render';
import { serverAnswers } from '../../testing/server-answers';
import { ApiForm, useApiForm } from './api-form';
import { ErrorBoundary } from './error-boundary';
import { PageState } from './page-state';

const REQUEST_ID = '7f1c2b9e-4a1d-4c3b-9e2f-0a1b2c3d4e5f';
const failure = {
  status: 500,
  body: {
    error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' },
  },
  headers: { 'x-request-id': REQUEST_ID },
};

function Bookings() {
  const query = useQuery({ queryKey: ['bookings'], queryFn: () => api.get<string[]>('/booked') });
  return (
    <PageState query={query} loading="Loading your bookings…" what="your bookings">
      {(bookings) => <p>{bookings.length} bookings</p>}
    </PageState>
  );
}

const NoteSchema = z.object({ note: z.string() });

function NoteForm() {
  const form = useApiForm<z.infer<typeof NoteSchema>>({
    resolver: zodResolver(NoteSchema),
    defaultValues: { note: 'Hello' },
    fields: {},
    send: (values) => api.post('/notes', values),
  });
  return (
    <ApiForm form={form} submit={{ label: 'Save', busyLabel: 'Saving…' }}>
      {null}
    </ApiForm>
  );
}

function Broken({ error }: { error: Error }): never {
  throw error;
}

describe('the code a person quotes about a failure', () => {
  it("shows a failed page load's X-Request-Id to quote", async () => {
    serverAnswers({ 'GET /api/booked': failure });
    renderWithApp(<Bookings />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('We could not load your bookings.');
    expect(alert).toHaveTextContent(`quote this code: ${REQUEST_ID}`);
  });

  it('shows none when the answer carried none', async () => {
    serverAnswers({ 'GET /api/booked': { ...failure, headers: {} } });
    renderWithApp(<Bookings />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong on our side.');
    expect(alert).not.toHaveTextContent('quote this code');
  });

  it("shows a refused form's code at the top of the form", async () => {
    serverAnswers({ 'POST /api/notes': failure });
    const { user } = renderWithApp(<NoteForm />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong on our side.');
    expect(alert).toHaveTextContent(`quote this code: ${REQUEST_ID}`);
  });

  it('shows none under a refusal the person can act on, such as a taken name', async () => {
    serverAnswers({
      'POST /api/notes': {
        status: 409,
        body: { error: { code: 'conflict', message: 'That note exists already.' } },
        headers: { 'x-request-id': REQUEST_ID },
      },
    });
    const { user } = renderWithApp(<NoteForm />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('That note exists already.');
    expect(alert).not.toHaveTextContent('quote this code');
  });

  it('shows the code on the error screen of a page that failed with an answer', () => {
    // Whatever its status: an answer that reaches the error screen was not expected.
    const error = new ApiError('not-found', 'Not found.', 404);
    error.requestId = REQUEST_ID;
    // React logs the error it caught; the screen is what matters here.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      renderWithApp(
        <ErrorBoundary>
          <Broken error={error} />
        </ErrorBoundary>,
      );
    } finally {
      logged.mockRestore();
    }
    expect(screen.getByRole('heading', { name: 'This page could not be shown' })).toBeVisible();
    expect(screen.getByText(REQUEST_ID)).toBeVisible();
  });
});
