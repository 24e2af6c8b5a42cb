import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Two servers on one database, each started with `env`: two processes of one site, for tests of
 * what they share (Redis, the database). The second reuses the first's database, so anyone
 * registered on one signs in to the other. On PostgreSQL only: a PGlite app in memory is its own.
 */
export async function startTwoServers(
  env: Record<string, string> = {},
): Promise<readonly [TestApp, TestApp]> {
  const first = await startTestApp({ env });
  try {
    const second = await startTestApp({
      env,
      reuse: { dataDir: first.dataDir, databaseUrl: first.databaseUrl },
    });
    return [first, second] as const;
  } catch (error) {
    await first.close();
    throw error;
  }
}
