import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import path from 'node:path';
import { PRECACHE_GLOBS, PRECACHE_IGNORES, precacheTransform } from './scripts/lib/pwa-precache.mjs';

// MANNA_DIST lets parallel builds (tests, benchmarks) write to their own folder.
const dist = path.resolve(process.env.MANNA_DIST ?? 'dist');

export default defineConfig(({ isSsrBuild, mode }) => ({
  plugins: [
    react(),
    // The service worker (src/sw.ts) must see the final, prerendered HTML, so the plugin sleeps in
    // the client build and scripts/build-pwa.mjs runs it (api.generateSW) after the prerender step
    // with MANNA_PWA_STEP=sw. The web manifest and icons come from scripts/build-pwa.mjs too.
    VitePWA({
      disable: process.env.MANNA_PWA_STEP !== 'sw',
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        rollupFormat: 'iife',
        globPatterns: PRECACHE_GLOBS,
        globIgnores: PRECACHE_IGNORES,
        manifestTransforms: [precacheTransform(dist)],
        maximumFileSizeToCacheInBytes: 2_000_000,
      },
    }),
  ],
  resolve: {
    // Development builds only: every useMachine/useActor/useActorRef goes through a wrapper that
    // connects the actor to the Stately inspector when the page was opened with ?inspect
    // (src/dev/README.md). Production and server-render builds use @xstate/react as it is.
    alias:
      mode === 'development' && !isSsrBuild
        ? [
            { find: /^@xstate\/react$/, replacement: path.resolve('src/dev/xstate-react-inspected.ts') },
            {
              find: /^@xstate-react-original$/,
              replacement: path.resolve('node_modules/@xstate/react/dist/xstate-react.development.esm.js'),
            },
          ]
        : [],
  },
  build: {
    outDir: isSsrBuild ? path.join(dist, 'server') : path.join(dist, 'client'),
    emptyOutDir: true,
    manifest: !isSsrBuild,
    sourcemap: process.env.MANNA_SOURCEMAP === '1',
    target: 'es2022',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            // Everything the entry needs before its first render (react-dom, the router, i18next,
            // xstate, the header) in one file: one request and one gzip window instead of a
            // dozen small files. Screens and their data stay lazy chunks.
            codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
          },
        },
  },
  ssr: {
    // bundle everything browser-side into the server-render bundle so it runs without Vite
    noExternal: isSsrBuild ? true : undefined,
  },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080' } },
}));
