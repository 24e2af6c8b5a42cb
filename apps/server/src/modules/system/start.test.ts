import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverRoot } from '../../config.ts';
import { freePort, untilReady } from '../../test/child-server.ts';

const root = path.join(serverRoot, '../..');
const started: { pid: number; dataDir: string }[] = [];

/** `npm start` as a person runs it (its script, not npm), on a fresh embedded database. */
async function npmStart() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carmarket-start-'));
  const { MALLOC_ARENA_MAX: _operators, ...env } = process.env;
  const parent = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: {
      ...env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'error',
      SEED_DEMO: 'false',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  parent.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => parent.once('exit', resolve));
  const baseUrl = `http://127.0.0.1:${port}`;
  // It builds what is out of date first.
  await untilReady(baseUrl, parent, () => stderr, 150_000);
  // The server is the start script's one child process.
  const children = fs.readFileSync(`/proc/${parent.pid}/task/${parent.pid}/children`, 'utf8');
  const server = Number(children.trim().split(/\s+/)[0]);
  started.push({ pid: server, dataDir });
  return { parent, server, baseUrl, exited };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number) {
  const deadline = Date.now() + 15_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return !alive(pid);
}

afterEach(() => {
  for (const { pid, dataDir } of started.splice(0)) {
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

// The start script and the server it runs: Linux's /proc names the child and its environment.
// Its database is always the embedded one: it runs in the PGlite round of `npm test`, not again in
// the PostgreSQL round (TEST_DATABASE_URL set).
describe.skipIf(process.platform !== 'linux' || Boolean(process.env.TEST_DATABASE_URL))(
  'npm start',
  () => {
    it('runs the server with two malloc arenas, and stops it gracefully on SIGTERM', async () => {
      const { parent, server, baseUrl, exited } = await npmStart();
      const environ = fs.readFileSync(`/proc/${server}/environ`, 'utf8').split('\0');
      expect(environ).toContain('MALLOC_ARENA_MAX=2');
      expect((await fetch(`${baseUrl}/api/health`)).status).toBe(200);

      parent.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(await gone(server)).toBe(true);
      await expect(fetch(`${baseUrl}/api/health`)).rejects.toThrow();
    }, 180_000);

    it('leaves no server behind when the start script is killed outright', async () => {
      const { parent, server, baseUrl } = await npmStart();
      parent.kill('SIGKILL');
      expect(await gone(server)).toBe(true);
      await expect(fetch(`${baseUrl}/api/health`)).rejects.toThrow();
    }, 180_000);
  },
);
