// `npm start`: builds what is missing or out of date, then runs the server in a process of its
// own, started with the environment servers run with (scripts/server-env.mjs, decision 021).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnv } from './server-env.mjs';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const at = (...parts) => path.join(root, ...parts);

/** Newest modification time of these files and of any file below these folders (0: none). */
function newest(...paths) {
  let latest = 0;
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    if (!fs.statSync(dir).isDirectory()) {
      latest = Math.max(latest, fs.statSync(dir).mtimeMs);
      return;
    }
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else latest = Math.max(latest, fs.statSync(full).mtimeMs);
    }
  };
  paths.forEach(walk);
  return latest;
}

function builtAt(file) {
  return fs.existsSync(file) ? fs.statSync(file).mtimeMs : -1;
}

function run(label, args) {
  console.log(`> ${label}`);
  // A build for serving, whatever NODE_ENV the shell (or a test runner) has: under
  // NODE_ENV=test or development Vite emits React's development JSX calls, which the server's
  // prerender cannot run.
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync('npm', args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const shared = at('packages/shared/src');
const webMarker = at('apps/web/dist/spa.html');
if (
  builtAt(webMarker) <
  newest(at('apps/web/src'), at('apps/web/public'), at('apps/web/index.html'), shared)
) {
  run('building the web app (first start or sources changed)', ['run', 'build:web']);
}
const serverBundle = at('apps/server/dist/server.js');
if (builtAt(serverBundle) < newest(at('apps/server/src'), shared)) {
  run('building the server', ['run', 'build:server']);
}

// glibc reads MALLOC_ARENA_MAX when a process starts, so the server cannot run in this one.
const server = spawn(process.execPath, [serverBundle], {
  env: serverEnv(),
  // The channel ends when this process does, however it ends; the server then shuts down.
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
});
// Ctrl-C reaches the server from the terminal too, and npm may pass a signal on twice: the
// server is asked to stop once, and stops gracefully (or exits after SHUTDOWN_TIMEOUT_MS).
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, stop);
server.on('exit', (code, signal) => process.exit(code ?? 128 + os.constants.signals[signal]));
