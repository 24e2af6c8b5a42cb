import type { TestProject } from 'vitest/node';
import { prepareDatabase } from './prepared-database.ts';

/** One preparation shared by the projects that start the server (`api`, `api-once`) in one run. */
const shared = globalThis as {
  preparedDatabase?: { users: number; ready: ReturnType<typeof prepareDatabase> };
};

/** Once per run of the API tests: the database every fresh test app starts from (decision 023). */
export default async function setup(project: TestProject) {
  const entry = (shared.preparedDatabase ??= { users: 0, ready: prepareDatabase() });
  entry.users += 1;
  const { prepared, dispose } = await entry.ready;
  project.provide('preparedDatabase', prepared);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    shared.preparedDatabase = undefined;
    await dispose();
  };
}
