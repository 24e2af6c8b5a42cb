import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { cssOnlyPreloadHelper } from './css-preload-helper';
import { entryStylesheetAlwaysLoaded } from './entry-stylesheet';
import { linkWithoutPrefetch } from './link-without-prefetch';

const apiOrigin = process.env.API_ORIGIN ?? 'http://127.0.0.1:3000';
const proxy = {
  '/api': { target: apiOrigin, changeOrigin: false },
  '/media': { target: apiOrigin, changeOrigin: false },
};

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    tailwindcss(),
    entryStylesheetAlwaysLoaded(),
    cssOnlyPreloadHelper(),
    linkWithoutPrefetch(),
  ],
  // The server build (entry-server.tsx) is loaded by the API server to render pages per request:
  // it carries React's production build with it, whatever NODE_ENV the server runs under, and
  // needs nothing of apps/web's dependencies at run time.
  ...(isSsrBuild && {
    ssr: { noExternal: true },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  }),
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // The prerender script reads it to list each server-rendered route's chunks, then deletes it.
    manifest: true,
    // No runtime preloading of a lazy chunk's imports: Vite's helper and the lists of every chunk's
    // dependencies cost ~0.25 KB on every page, against the home page's 100 KB budget. The
    // prerender writes the preloads each prerendered page needs into its HTML instead; a lazy
    // chunk's stylesheets are loaded by css-preload-helper.ts.
    modulePreload: false,
    rolldownOptions: isSsrBuild
      ? {}
      : {
          // The loader that prerendered pages use instead of the entry's script tag, and what
          // holds early clicks on pages rendered per person.
          input: {
            index: 'index.html',
            'start-app': 'src/start-app.ts',
            'early-clicks': 'src/early-clicks.ts',
          },
          output: {
            // Everything the entry loads before any page goes in the entry's own file. Left alone,
            // the bundler puts React and its own helpers in a second file that every page also
            // loads: ~0.55 KB gzipped more on the home page (its exports, imports and a gzip
            // stream of its own). The two tiny entries stay apart: they must not pull in the app.
            codeSplitting: {
              groups: [
                {
                  name: 'index',
                  tags: ['$initial'],
                  test: (id) => !/src[\\/](start-app|early-clicks)\.ts$/.test(id),
                },
              ],
            },
          },
        },
  },
}));
