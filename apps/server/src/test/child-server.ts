import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { serverRoot } from '../config.ts';
import { TEST_ADDRESS_LIMITS } from './prepared-database.ts';

export interface ChildServer {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  /** Resolves with the signal (or exit code) the process ended with. */
  exited: Promise<NodeJS.Signals | number | null>;
  stop(): Promise<void>;
}

/**
 * Waits until the server at `baseUrl` answers `/api/ready`; fails with what `child` wrote to
 * stderr if it exits first, or kills it and fails after `timeoutMs`.
 */
export async function untilReady(
  baseUrl: string,
  child: ChildProcess,
  stderr: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited while starting:\n${stderr()}`);
    }
    const ready = await fetch(`${baseUrl}/api/ready`).catch(() => undefined);
    if (ready?.ok) return;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become ready:\n${stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A port nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The real server in a process of its own (`src/server.ts` through tsx), for tests that kill it
 * with SIGKILL and start it again on the same database and port.
 */
export async function startChildServer(
  env: Record<string, string>,
  port?: number,
): Promise<ChildServer> {
  const listenPort = port ?? (await freePort());
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(serverRoot, 'src/server.ts')],
    {
      cwd: path.join(serverRoot, '../..'),
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'error',
        HOST: '127.0.0.1',
        PORT: String(listenPort),
        SEED_DEMO: 'true',
        ...TEST_ADDRESS_LIMITS,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(signal ?? code)),
  );
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const baseUrl = `http://127.0.0.1:${listenPort}`;
  await untilReady(baseUrl, child, () => stderr, 60_000);
  return {
    baseUrl,
    port: listenPort,
    child,
    exited,
    async stop() {
      if (!ended) child.kill('SIGTERM');
      await exited;
    },
  };
}
