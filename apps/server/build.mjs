// Bundles the server into dist/server.js and the commands into dist/create-admin.js, backup.js and restore.js. Our own workspace code (TypeScript) is bundled in;
// every npm dependency stays external and is loaded from node_modules at run time.
// `node build.mjs DIR` writes them to DIR instead (`npm run release` builds into its folder).
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

const outdir = process.argv[2] ?? 'dist';

await build({
  entryPoints: {
    server: 'src/server.ts',
    'create-admin': 'src/cli/create-admin.ts',
    backup: 'src/cli/backup.ts',
    restore: 'src/cli/restore.ts',
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-dependencies',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@carmarket/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});

// The VIN decoder's thread is plain JavaScript started by URL beside the module that starts it
// (modules/vin/vin-decoder.ts): beside the bundle it is dist/vin-worker.mjs (decision 033).
await copyFile('src/modules/vin/vin-worker.mjs', path.join(outdir, 'vin-worker.mjs'));
