import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCallers, apiRoutes, CALLERS } from '../../test/api-calls.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { ACCESS } from './access-matrix.expected.ts';

/**
 * Every route of the OpenAPI document, called as each kind of caller with real ids, against the
 * table in access-matrix.expected.ts. A route without a row fails, so a new route comes with its
 * access written down. Targets that a successful call would use up (a car, a booking, an account)
 * are made fresh for each call, so the calls do not depend on each other. A failure names every
 * cell that differs, and never a row to paste: each change of access is decided, and written in
 * the table, by hand.
 */
describe('who may call what', () => {
  let app: TestApp;
  let callers: Awaited<ReturnType<typeof apiCallers>>;
  beforeAll(async () => {
    // Every call of a route is made for several callers: no quota may run out on the way.
    app = await startTestApp({
      env: {
        UPLOAD_QUOTA_PER_DAY: '1000',
        MESSAGE_LIMIT_PER_MINUTE: '100000',
        MESSAGE_LIMIT_PER_DAY: '100000',
        CONVERSATION_LIMIT_PER_DAY: '100000',
        UNCONFIRMED_CONVERSATION_LIMIT_PER_DAY: '100000',
      },
    });
    callers = await apiCallers(app);
  });
  afterAll(() => app.close());

  it('answers each caller as the table says, for every route of the API', async () => {
    const routes = await apiRoutes(app);
    const actual: Record<string, number[]> = {};
    for (const route of routes) {
      const statuses: number[] = [];
      for (const caller of CALLERS) {
        const response = await callers.call(route, caller);
        statuses.push(response.status);
        // An answer left unread keeps its connection busy, and the server's close waits for it
        // (the live stream's answer never ends by itself).
        await response.body?.cancel();
      }
      actual[route] = statuses;
    }
    // Every cell that differs, each on a line of its own: a reviewer decides and writes each one.
    const differences: string[] = [];
    for (const route of routes) {
      const answered = actual[route]!;
      const row = ACCESS[route]?.split(' ').map(Number);
      if (row && row.length !== CALLERS.length) {
        differences.push(`${route}: its row has ${row.length} cells, not ${CALLERS.length}`);
        continue;
      }
      CALLERS.forEach((caller, column) => {
        if (!row) {
          differences.push(`${route}, ${caller}: no row; answered ${answered[column]}`);
        } else if (answered[column] !== row[column]) {
          differences.push(
            `${route}, ${caller}: the table says ${row[column]}, answered ${answered[column]}`,
          );
        }
      });
    }
    for (const route of Object.keys(ACCESS)) {
      if (!routes.includes(route)) differences.push(`${route}: a row for a route that is gone`);
    }
    expect(differences, `${differences.length} differences:\n${differences.join('\n')}`).toEqual(
      [],
    );
  }, 180_000);
});
