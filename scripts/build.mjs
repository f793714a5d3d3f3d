#!/usr/bin/env node
// Builds the PWA, the server-render bundle, and prerenders every public page in every language.
// Output: $MANNA_DIST (default ./dist) — see scripts/README.md for the layout the server reads.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.resolve(root, process.env.MANNA_DIST ?? 'dist');
const clientDir = path.join(dist, 'client');
const pagesDir = path.join(dist, 'pages');
const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');

function run(args, extraEnv = {}) {
  const r = spawnSync(process.execPath, [vite, ...args], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, MANNA_DIST: dist, ...extraEnv },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const started = Date.now();
fs.rmSync(dist, { recursive: true, force: true });
// The contact page's world map, from the public-domain outline in world-atlas (deterministic: the
// committed src/content/world-map.ts is the same file, kept for typecheck and the dev server).
{
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-world-map.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
run(['build', '--logLevel', 'warn']);
run(['build', '--ssr', 'src/entry-server.tsx', '--logLevel', 'warn']);
await import(pathToFileURL(path.join(root, 'scripts', 'prerender.mjs')).href).then((m) =>
  m.prerender({ root, dist, clientDir, pagesDir }),
);
// Icons, web manifest and the service worker: after the prerender (precache hashes of the final HTML).
await import(pathToFileURL(path.join(root, 'scripts', 'build-pwa.mjs')).href).then((m) =>
  m.buildPwa({ root, dist, clientDir }),
);
compressTree(clientDir);
console.log(`build: done in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${path.relative(root, dist) || dist}`);

/** Writes .br and .gz beside every compressible static file, for the server's precompressed serving. */
function compressTree(dir) {
  const compressible = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml|map)$/;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !compressible.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const data = fs.readFileSync(file);
    if (data.length < 512) continue;
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(data, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      }),
    );
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
  }
}

