import type { Plugin } from 'vite';

const RENDER_PREFETCH =
  'return shouldPrefetch && !isAbsolute ? /* @__PURE__ */ React10.createElement(React10.Fragment, null, link, /* @__PURE__ */ React10.createElement(PrefetchPageLinks, { page: href })) : link;';

/**
 * React Router's <Link> can render <PrefetchPageLinks> beside itself, and so carries the code of
 * framework mode's route manifests and prefetching (~1.5 KB gzipped in the entry, against the home
 * page's 100 KB budget). That happens only inside framework mode's FrameworkContext: in our
 * declarative <BrowserRouter> app `shouldPrefetch` is always false (and PrefetchPageLinks would
 * throw without that context). So the line is replaced by its other branch. If an upgrade changes
 * the line, the build stops: check the new code and update RENDER_PREFETCH.
 */
export function linkWithoutPrefetch(): Plugin {
  let found = false;
  return {
    name: 'link-without-prefetch',
    apply: 'build',
    enforce: 'pre',
    buildStart() {
      found = false;
    },
    transform: {
      filter: { id: /[\\/]react-router[\\/]dist[\\/]/, code: 'PrefetchPageLinks, { page: href }' },
      handler(code) {
        if (!code.includes(RENDER_PREFETCH)) return null;
        found = true;
        return { code: code.replace(RENDER_PREFETCH, 'return link;'), map: null };
      },
    },
    buildEnd(error) {
      if (!error && !found) {
        this.error(
          "react-router's <Link> no longer has the line link-without-prefetch.ts replaces: check it",
        );
      }
    },
  };
}
