// Vitest's setup for the web app's component tests (`*.test.tsx`, the `web` project): Testing
// Library's matchers (toBeVisible, toHaveAttribute, toHaveAccessibleDescription ...) and, after
// each test, a clean page: the files of a worker share one document (`isolate: false` in
// vitest.config.ts), so nothing a test leaves (a toast, a stored value, an address) may reach
// the next one.
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

// Toasts are the browser journeys' to see, not a component test's: the toaster is loaded lazily,
// so a toast a test sends as it ends could mount in the next test's page and show there (two
// alerts where it waits for one). Loaded here, before any test, its container is taken out of
// the page at once: every toast shows in a detached node, in the test that sent it.
beforeAll(async () => {
  await import('../lib/toaster');
  document.getElementById('notifications')?.remove();
});

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});
