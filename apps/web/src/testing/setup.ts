// Vitest's setup for the web app's component tests (`*.test.tsx`, the `web` project): Testing
// Library's matchers (toBeVisible, toHaveAttribute, toHaveAccessibleDescription ...) and a clean
// document after each test.
import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(cleanup);
