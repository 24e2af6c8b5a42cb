// `npm run release`: builds the web app and the server, then makes release/carmarket-<version>/
// and release/carmarket-<version>.tgz, a folder that runs with `node server.js` and nothing
// else of the repository (decision 043):
//
//   server.js, create-admin.js ...  start the bundle's programs (each finds everything relative
//                                   to itself)
//   apps/server/dist/               the server bundle, the admin command, the VIN decoder's process
//   apps/server/src/db/migrations/  what the server migrates with at start (config.ts)
//   apps/web/dist/, dist-ssr/       the web build (precompressed .br/.gz beside each file)
//   deploy/                         the nginx site, systemd units, Dockerfile and compose file
//   package.json, package-lock.json, node_modules/
//                                   the npm packages the bundle leaves external (build.mjs), at
//                                   the versions this repository runs, production ones only
//
// The folder keeps the repository's layout below it because the bundle finds its migrations and
// the web build relative to itself (config.ts's serverRoot), as it does from the repository.
// node_modules holds native parts (sharp's libvips for this platform, PGlite's WebAssembly):
// a release made on linux-x64 with glibc runs there only.
//
//   --skip-build   use the web build already in apps/web (the server is always bundled afresh)
//   --out DIR      where to write (default: release/)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const at = (...parts) => path.join(root, ...parts);
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};

const rootPackage = JSON.parse(fs.readFileSync(at('package.json'), 'utf8'));
const name = `carmarket-${rootPackage.version}`;
const outRoot = path.resolve(option('--out') ?? at('release'));
const out = path.join(outRoot, name);
const tarball = path.join(outRoot, `${name}.tgz`);

function run(command, commandArgs, options = {}) {
  console.log(`> ${command} ${commandArgs.join(' ')}`);
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`release: ${command} ${commandArgs.join(' ')} failed (${result.status})`);
    process.exit(result.status ?? 1);
  }
}

const started = performance.now();
if (!args.includes('--skip-build')) {
  // A build for serving, whatever NODE_ENV the shell has (scripts/start.mjs says why).
  run('npm', ['run', 'build:web'], { cwd: root, env: { ...process.env, NODE_ENV: 'production' } });
}
for (const file of ['apps/web/dist/spa.html', 'apps/web/dist-ssr/entry-server.js']) {
  if (!fs.existsSync(at(file))) {
    console.error(`release: ${file} is missing; run \`npm run build\` (or drop --skip-build)`);
    process.exit(1);
  }
}

fs.rmSync(out, { recursive: true, force: true });
fs.rmSync(tarball, { force: true });
fs.mkdirSync(out, { recursive: true });
const copy = (from, to = from) => fs.cpSync(at(from), path.join(out, to), { recursive: true });
// The server is bundled straight into the folder (a second or two), so that only what build.mjs
// makes ships, never what else was left in apps/server/dist.
run(process.execPath, ['build.mjs', path.join(out, 'apps/server/dist')], {
  cwd: at('apps/server'),
});
copy('apps/server/src/db/migrations');
copy('apps/web/dist');
copy('apps/web/dist-ssr');
copy('deploy');
if (fs.existsSync(at('LICENSE'))) copy('LICENSE');
// One launcher at the top for each program of the bundle (build.mjs's entry points): server.js,
// create-admin.js and any command added beside them.
const bundleDir = path.join(out, 'apps/server/dist');
const programs = fs.readdirSync(bundleDir).filter((file) => file.endsWith('.js'));
for (const program of programs) {
  fs.writeFileSync(
    path.join(out, program),
    `// \`node ${program}\` runs apps/server/dist/${program} (settings from the environment, docs/configuration.md).\nimport './apps/server/dist/${program}';\n`,
  );
}

// The packages the bundle leaves external: every dependency of the server and of the shared
// package (build.mjs bundles only @carmarket/*), at the version installed here.
const dependencies = {};
for (const workspace of ['apps/server', 'packages/shared']) {
  const manifest = JSON.parse(fs.readFileSync(at(workspace, 'package.json'), 'utf8'));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    if (dependency.startsWith('@carmarket/')) continue;
    // Where Node finds it from the workspace: its own node_modules, else the root's.
    const installed = [at(workspace, 'node_modules', dependency), at('node_modules', dependency)]
      .map((folder) => path.join(folder, 'package.json'))
      .find((file) => fs.existsSync(file));
    if (!installed) {
      console.error(`release: ${dependency} is not installed; run \`npm ci\` first`);
      process.exit(1);
    }
    dependencies[dependency] = JSON.parse(fs.readFileSync(installed, 'utf8')).version;
  }
}

// Every package the built files import must be among them: a dependency added to the server's
// code but not to its package.json would otherwise fail only at run time, in production.
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const packageOf = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
const analysis = await build({
  entryPoints: fs
    .readdirSync(bundleDir)
    .filter((file) => /\.m?js$/.test(file))
    .map((file) => path.join(bundleDir, file)),
  bundle: true,
  write: false,
  metafile: true,
  outdir: path.join(out, '.analysis'),
  platform: 'node',
  format: 'esm',
  logLevel: 'error',
  plugins: [
    {
      name: 'externals',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (resolve) => ({ path: resolve.path, external: true }));
      },
    },
  ],
});
const imported = new Set();
for (const input of Object.values(analysis.metafile.inputs)) {
  for (const { path: specifier, external } of input.imports) {
    if (external && !builtins.has(specifier)) imported.add(packageOf(specifier));
  }
}
const missing = [...imported].filter((dependency) => !(dependency in dependencies));
if (missing.length > 0) {
  console.error(
    `release: the bundle imports ${missing.join(', ')}, not in apps/server/package.json's dependencies`,
  );
  process.exit(1);
}

fs.writeFileSync(
  path.join(out, 'package.json'),
  `${JSON.stringify(
    {
      name: 'carmarket',
      version: rootPackage.version,
      private: true,
      description: rootPackage.description,
      license: rootPackage.license,
      type: 'module',
      engines: rootPackage.engines,
      // The repository's install-script policy (better-sqlite3's build is not wanted, decision 033).
      allowScripts: rootPackage.allowScripts,
      scripts: Object.fromEntries(
        programs.map((program) => [
          program === 'server.js' ? 'start' : program.replace(/\.js$/, ''),
          `node ${program}`,
        ]),
      ),
      dependencies: Object.fromEntries(Object.entries(dependencies).sort()),
    },
    null,
    2,
  )}\n`,
);
// From the npm registry (or npm's cache); package-lock.json stays in the folder, so an operator
// can `npm ci --omit=dev` the very same tree again.
run('npm', ['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
  cwd: out,
  env: { ...process.env, NODE_ENV: 'production' },
});

run('tar', ['-czf', tarball, '-C', outRoot, name]);
const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `release: ${path.relative(process.cwd(), out) || out} and ${path.relative(process.cwd(), tarball)} (${megabytes(fs.statSync(tarball).size)}) in ${((performance.now() - started) / 1000).toFixed(0)} s; start it with \`node server.js\` in the folder`,
);
