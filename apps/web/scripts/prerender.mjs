/**
 * Writes the HTML of the public pages at build time, after `vite build` (client, into dist/) and
 * `vite build --ssr src/entry-server.tsx` (into dist-ssr/, which the server also loads to render
 * pages per person):
 *
 *   dist/index.html, dist/blog/index.html, dist/blog/<slug>/index.html   prerendered pages
 *   dist/spa.html                                                         the empty app shell
 *   dist/prerendered.json                                                 path -> file, for the server
 *   dist/personal/<name>.html            templates of the pages the server renders per person
 *   dist/personal-pages.json             route pattern -> template, for the server
 *
 * The server answers a path listed in prerendered.json with its file, a personal page for a
 * signed-in person with its template filled in, and every other app route with spa.html. No
 * inline script is written: the server's CSP allows only 'self' scripts (a personal page's data
 * is a JSON block, which is not run).
 *
 * A prerendered page is complete without script, so instead of the entry's module script it
 * loads src/start-app.ts (built as a second, tiny entry), which adds the entry once the page has
 * painted. The first paint, and the Largest Contentful Paint, then never wait for the app's code,
 * not even in Lighthouse's simulated throttling, which counts every request started before the
 * paint. `data-entry` names the entry module and `data-preload` the modules it will import.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// React's server renderer picks its production build from NODE_ENV.
process.env.NODE_ENV ??= 'production';

const webRoot = fileURLToPath(new URL('..', import.meta.url));
const distDir = join(webRoot, 'dist');
const ssrDir = join(webRoot, 'dist-ssr');
const ROOT_EMPTY = '<div id="root"></div>';

function fail(message) {
  console.error(`prerender: ${message}`);
  process.exit(1);
}

const template = await readFile(join(distDir, 'index.html'), 'utf8');
if (!template.includes(ROOT_EMPTY)) fail(`dist/index.html has no empty ${ROOT_EMPTY}`);
if (/<script(?![^>]*\bsrc=)[^>]*>/i.test(template)) {
  fail('dist/index.html has an inline <script>, which the CSP would block');
}

const ENTRY_SCRIPT = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const entryScript = template.match(ENTRY_SCRIPT);
if (!entryScript) fail('dist/index.html has no module script');

const manifest = JSON.parse(await readFile(join(distDir, '.vite', 'manifest.json'), 'utf8'));
const entryKey = 'index.html';
const loaderKey = 'src/start-app.ts';
const earlyClicksKey = 'src/early-clicks.ts';
if (![entryKey, loaderKey, earlyClicksKey].every((key) => manifest[key]?.isEntry)) {
  fail(`the Vite manifest lacks the entries ${entryKey}, ${loaderKey} and ${earlyClicksKey}`);
}

/** A chunk and every chunk it imports statically. */
function staticClosure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key]?.imports ?? []) staticClosure(imported, seen);
  return seen;
}
const loadedWithEntry = staticClosure(entryKey);
// Vite is told not to preload (vite.config.ts), so the entry's own imports are preloaded here.
const entryImports = [...loadedWithEntry]
  .filter((key) => key !== entryKey)
  .map((key) => `/${manifest[key].file}`);

/** The route's own chunks and stylesheets, beyond what the entry loads anyway. */
function routeAssets(source) {
  if (!manifest[source]) fail(`the Vite manifest has no chunk for ${source}`);
  const modules = [];
  const styles = [];
  for (const key of staticClosure(source)) {
    if (loadedWithEntry.has(key)) continue;
    modules.push(`/${manifest[key].file}`);
    for (const css of manifest[key].css ?? []) styles.push(`/${css}`);
  }
  return { modules, styles };
}

function pageHtml({ html, title, description, source }) {
  const { modules, styles } = routeAssets(source);
  const preload = [...entryImports, ...modules].join(' ');
  const head = [
    ...styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
    `<script type="module" crossorigin fetchpriority="low" src="/${manifest[loaderKey].file}" data-entry="${entryScript[1]}" data-preload="${preload}"></script>`,
  ];
  return template
    .replace(ENTRY_SCRIPT, '')
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      `<meta name="description" content="${escapeHtml(description)}" />`,
    )
    .replace('</head>', `  ${head.join('\n    ')}\n  </head>`)
    .replace(ROOT_EMPTY, `<div id="root">${html}</div>`);
}

const { render, prerenderPaths, personalPagePatterns, pageSources, pageMarks, escapeHtml } =
  await import(pathToFileURL(join(ssrDir, 'entry-server.js')).href);

// The shell for every route that is not prerendered; written before index.html is replaced.
const shellPreloads = entryImports.map(
  (href) => `<link rel="modulepreload" crossorigin href="${href}">`,
);
await writeFile(
  join(distDir, 'spa.html'),
  template.replace('</head>', `  ${[...shellPreloads, ''].join('\n    ')}</head>`),
);

const written = {};
for (const path of prerenderPaths) {
  const result = await render(path);
  if (!result.html) fail(`${path} rendered nothing`);
  if (/<script\b/i.test(result.html)) fail(`${path} rendered a <script> tag`);
  const file = path === '/' ? 'index.html' : `${path.slice(1)}/index.html`;
  await mkdir(dirname(join(distDir, file)), { recursive: true });
  await writeFile(join(distDir, file), pageHtml(result));
  written[path] = file;
  console.log(`prerendered ${path} -> dist/${file}`);
}

await writeFile(join(distDir, 'prerendered.json'), `${JSON.stringify(written, null, 2)}\n`);

// A personal page's template: the server puts in the title, the description, the markup and
// the data it rendered with (fillPersonalPage, beside pageMarks in entry-server.tsx).
const personal = {};
await mkdir(join(distDir, 'personal'), { recursive: true });
for (const pattern of personalPagePatterns) {
  const file = `personal/${pattern.split('/')[1]}.html`;
  const page = pageHtml({
    html: pageMarks.html,
    title: pageMarks.title,
    description: pageMarks.description,
    source: pageSources[pattern],
  })
    // Holds a click on a button until the app has taken the page over (src/early-clicks.ts).
    .replace(
      '</head>',
      `  <script type="module" crossorigin src="/${manifest[earlyClicksKey].file}"></script>\n  </head>`,
    )
    .replace(
      `${pageMarks.html}</div>`,
      `${pageMarks.html}</div><script type="application/json" id="page-data">${pageMarks.data}</script>`,
    );
  await writeFile(join(distDir, file), page);
  personal[pattern] = file;
  console.log(`template of ${pattern} -> dist/${file}`);
}
await writeFile(join(distDir, 'personal-pages.json'), `${JSON.stringify(personal, null, 2)}\n`);

// Build leftovers that should not be served or committed (dist-ssr/ itself stays for the server).
await rm(join(distDir, '.vite'), { recursive: true, force: true });
await rm(join(ssrDir, '.vite'), { recursive: true, force: true });
