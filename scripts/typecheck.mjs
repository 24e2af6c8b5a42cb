// `npm run typecheck`: each workspace's tsconfig, incrementally: what tsc learnt in the last run
// is kept in node_modules/.cache/tsc, so a second run in one checkout checks only what changed
// (a fresh clone has no cache and checks everything).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
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
