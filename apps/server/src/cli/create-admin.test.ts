import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { serverRoot } from '../config.ts';
import { TestClient, signInAs } from '../test/client.ts';
import { startTestApp } from '../test/test-app.ts';

const run = promisify(execFile);

describe('npm run create-admin', () => {
  it('creates an admin who can sign in, and promotes an existing account', async () => {
    const first = await startTestApp();
    const reuse = { dataDir: first.dataDir, databaseUrl: first.databaseUrl };
    await first.close();
    // The embedded database is restarted from its directory; PGlite in memory cannot be shared.
    const seeded = await startTestApp({ reuse });
    await seeded.close();

    const env = {
      ...process.env,
      DATA_DIR: reuse.dataDir,
      ...(reuse.databaseUrl ? { DATABASE_URL: reuse.databaseUrl } : {}),
    };
    const cli = (...args: string[]) =>
      run(
        process.execPath,
        ['--import', 'tsx', path.join(serverRoot, 'src/cli/create-admin.ts'), ...args],
        { env },
      );
    const created = await cli(
      '--email',
      'owner@example.com',
      '--password',
      'owner passphrase 42',
      '--name',
      'Olive Owner',
    );
    expect(created.stdout).toContain('owner@example.com: created as admin.');
    const promoted = await cli('--email', 'buyer@demo.local');
    expect(promoted.stdout).toContain('promoted to admin');
    await expect(
      cli('--email', 'weak@example.com', '--password', 'password'),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('--password'),
    });

    const app = await startTestApp({ reuse });
    try {
      const owner = await signInAs(app, 'owner@example.com', 'owner passphrase 42');
      expect(await (await owner.get('/api/user/admin/owner@example.com')).json()).toEqual({
        isAdmin: true,
      });
      const buyer = await signInAs(app, 'buyer@demo.local');
      expect(await (await buyer.get('/api/user/admin/buyer@demo.local')).json()).toEqual({
        isAdmin: true,
      });
      expect((await new TestClient(app).get('/api/user/admin/owner@example.com')).status).toBe(401);
    } finally {
      await app.close();
    }
    // Three test apps and three runs of the command, each a Node process compiling the CLI with
    // tsx and opening the database: 10 s alone on PostgreSQL, 26-29 s on PGlite beside another
    // test file on a 2-core machine, too close to the 30 s every other test gets.
  }, 120_000);
});
