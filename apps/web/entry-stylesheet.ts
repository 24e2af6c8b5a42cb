import type { Plugin } from 'vite';

const MAP_DEPS =
  /const __vite__mapDeps=\(i,m=__vite__mapDeps,d=\(m\.f\|\|\(m\.f=(\[[^\]]*\])\)\)\)=>i\.map\(i=>d\[i\]\);?\n?/;
const MAP_DEPS_CALL = /__vite__mapDeps\(\[([\d,]*)\]\)/g;

/**
 * Every page's HTML links the entry's stylesheet, yet Vite lists it among the files to load
 * before each lazy chunk that imports anything of the entry's, and that list costs bytes in the
 * chunk that does the importing (~80 gzipped on the home page, against its 100 KB budget). This
 * drops the entry's stylesheet from those lists, and a list left empty altogether.
 */
export function entryStylesheetAlwaysLoaded(): Plugin {
  return {
    name: 'entry-stylesheet-always-loaded',
    apply: 'build',
    enforce: 'post',
    // After Vite's own generateBundle, which writes the lists.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const entry = Object.values(bundle).find(
          (file) => file.type === 'chunk' && file.isEntry && file.name === 'index',
        );
        const entryCss =
          entry?.type === 'chunk' ? [...(entry.viteMetadata?.importedCss ?? [])] : [];
        if (entryCss.length === 0) return;
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk') continue;
          const found = MAP_DEPS.exec(file.code);
          if (!found) continue;
          const deps = JSON.parse(found[1]!) as string[];
          const kept = deps.filter((dep) => !entryCss.includes(dep));
          if (kept.length === deps.length) continue;
          const newIndex = deps.map((dep) => kept.indexOf(dep));
          let code = file.code.replace(MAP_DEPS_CALL, (_call, list: string) => {
            const indices = list
              .split(',')
              .filter(Boolean)
              .map((index) => newIndex[Number(index)]!)
              .filter((index) => index >= 0);
            return indices.length === 0 ? 'void 0' : `__vite__mapDeps([${indices.join(',')}])`;
          });
          code =
            kept.length === 0
              ? code.replace(MAP_DEPS, '')
              : code.replace(found[1]!, JSON.stringify(kept));
          file.code = code;
        }
      },
    },
  };
}
