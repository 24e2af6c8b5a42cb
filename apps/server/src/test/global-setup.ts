import type { TestProject } from 'vitest/node';
import { prepareDatabase } from './prepared-database.ts';

/** Once per run of the API tests: the database every fresh test app starts from (decision 023). */
export default async function setup(project: TestProject) {
  const { prepared, dispose } = await prepareDatabase();
  project.provide('preparedDatabase', prepared);
  return dispose;
}
