import { afterAll } from 'vitest';
import { dropTestDatabases } from './test-app.ts';

afterAll(dropTestDatabases);
