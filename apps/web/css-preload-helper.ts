import type { Plugin } from 'vite';

const HELPER_ID = /^\0vite\/preload-helper\.js$/;
const MAP_DEPS_LIST =
  /const __vite__mapDeps=\(i,m=__vite__mapDeps,d=\(m\.f\|\|\(m\.f=(\[[^\]]*\])\)\)\)/;

/**
 * Vite wraps each lazy `import()` in a helper that first loads the chunk's stylesheets (and, with
 * module preloading, its imports; vite.config.ts turns that off). Its general helper, with
 * modulepreload detection, CSP nonces, `allSettled` and a `vite:preloadError` event, costs ~0.5 KB
 * gzipped in the entry, against the home page's 100 KB budget. Ours does what this app needs:
 * adds each stylesheet not already on the page, once, and imports the chunk when they have
 * loaded; a stylesheet that fails rejects the import, as Vite's does, and is tried again next
 * time. The build stops if a lazy chunk ever lists anything but stylesheets.
 */
const helper = `const loading = {};
export const __vitePreload = (load, deps = []) =>
  Promise.all(
    deps.map((dep) => {
      const href = '/' + dep;
      return (loading[href] ??= document.querySelector('link[rel=stylesheet][href="' + href + '"]')
        ? Promise.resolve()
        : new Promise((resolve, reject) => {
            const link = document.createElement('link');
            link.rel = 'stylesheet';
            link.href = href;
            link.onload = resolve;
            link.onerror = () => {
              delete loading[href];
              link.remove();
              reject(new Error('Unable to load ' + href));
            };
            document.head.append(link);
          }));
    }),
  ).then(load);
`;

export function cssOnlyPreloadHelper(): Plugin {
  return {
    name: 'css-only-preload-helper',
    apply: 'build',
    enforce: 'pre',
    load: {
      filter: { id: HELPER_ID },
      handler() {
        return this.environment.config.consumer === 'client' ? helper : null;
      },
    },
    // After Vite's own generateBundle, which writes each chunk's list.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk') continue;
          const list = MAP_DEPS_LIST.exec(file.code)?.[1] ?? '[]';
          const notCss = (JSON.parse(list) as string[]).filter((dep) => !dep.endsWith('.css'));
          if (notCss.length > 0) {
            this.error(
              `${file.fileName} preloads ${notCss.join(', ')}: css-preload-helper.ts loads stylesheets only`,
            );
          }
        }
      },
    },
  };
}
