import { Component, type ReactNode } from 'react';

import { MarkInteractive } from '../../lib/mark-interactive';
import { RequestCode } from './request-code';

interface Props {
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/** Catches a page that failed to load or render, e.g. its code could not be fetched (React logs it). */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <section
        className="mx-auto max-w-xl px-4 py-20 text-center"
        aria-labelledby="page-error-title"
      >
        <MarkInteractive />
        <h1 id="page-error-title" className="text-2xl font-bold">
          This page could not be shown
        </h1>
        <p className="mt-3 text-muted">
          Something went wrong while loading it. Reloading usually fixes it.
        </p>
        <RequestCode error={this.state.error} always />
        <button
          type="button"
          className="button button-primary mt-6"
          onClick={() => window.location.reload()}
        >
          Reload the page
        </button>
      </section>
    );
  }
}
