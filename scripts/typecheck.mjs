// `npm run typecheck`: each workspace's tsconfig with TypeScript's native compiler (TypeScript 7,
// the `typescript-7` package; decision 038), incrementally: what it learnt in the last run is kept
// in node_modules/.cache/tsc, so a second run in one checkout checks only what changed (a fresh
// clone has no cache and checks everything). The `typescript` package (5.9) stays for ESLint's
// parser and editors; both compilers read the same tsconfig files and find the same errors.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const tsc = path.join(root, 'node_modules/typescript-7/bin/tsc');
for (const workspace of ['packages/shared', 'apps/server', 'apps/web']) {
  const buildInfo = path.join(
    root,
    'node_modules/.cache/tsc',
    `${path.basename(workspace)}.tsbuildinfo`,
  );
  const result = spawnSync(
    process.execPath,
    [tsc, '-p', workspace, '--incremental', '--tsBuildInfoFile', buildInfo],
    { cwd: root, stdio: 'inherit' },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}
