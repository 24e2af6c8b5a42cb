// Vitest's setup for the web app's component tests (`*.test.tsx`, the `web` project): Testing
// Library's matchers (toBeVisible, toHaveAttribute, toHaveAccessibleDescription ...) and, after
// each test, a clean page: the files of a worker share one document (`isolate: false` in
// vitest.config.ts), so nothing a test leaves (a toast, a stored value, an address) may reach
// the next one.
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => {
  cleanup();
  document.body.innerHTML = '';
  window.localStorage.clear();
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});
