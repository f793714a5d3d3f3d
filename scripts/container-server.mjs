#!/usr/bin/env node
// The server as the container image runs it (Dockerfile, build stage): compiled ahead of time,
// with only the packages it loads at run time. `npm start` and the tests run the TypeScript with
// tsx instead; both run the same code.
//
//   node scripts/container-server.mjs <out> [--root <dir>]
//
// Writes to <out>:
//   server/      server/index.ts, every route, migration and seeder and the operator scripts
//                (create-admin, backup, restore) as ES modules at their own paths (the folders the
//                server lists at start: routes, migrations, seed), code they share in
//                server/chunks/, and the files the server reads beside its modules (*.txt, *.json)
//   node_modules/ the packages that cannot be bundled (native code, data files, worker threads)
//                and what they need at run time, without type declarations, source maps or docs
//   package.json  "type": "module"
// --root is where <out> will live when the server runs (default: <out> itself): a module that
// finds files beside itself (`new URL('./x', import.meta.url)`) is given its own path there, since
// its code may be moved into a shared chunk.
//
// Prints what it wrote and how large it is. The image's test (scripts/test-container.mjs) runs
// the result: the site, setup, an application with a CV, on SQLite and on PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const args = process.argv.slice(2);
const rootAt = args.indexOf('--root');
const positional = args.filter((a, i) => (i !== rootAt && i !== rootAt + 1) || rootAt < 0);
if (positional.length !== 1 || positional[0].startsWith('--') || (rootAt >= 0 && !args[rootAt + 1])) {
  console.error('Usage: node scripts/container-server.mjs <out> [--root <dir>]');
  process.exit(2);
}
const out = path.resolve(positional[0]);
const finalRoot = rootAt >= 0 ? path.resolve(args[rootAt + 1]) : undefined;
const runsFrom = finalRoot ?? out;

/** Packages left out of the bundle: native addons, data read beside the package, worker files. */
const EXTERNAL = [
  'better-sqlite3', // native addon
  '@node-rs/argon2', // native addon (its platform package comes with it)
  'sharp', // native addon (libvips comes as its platform package, @img/sharp-*)
  'geoip-country', // reads its data folder beside itself
  'pino', // transports run in worker threads loaded by file name
  'pino-pretty', // pino's transport for a terminal (app.ts), loaded by name
  'thread-stream',
];
/** What a package needs only to install, never to run. */
const INSTALL_ONLY = new Set(['prebuild-install']);
/** `pg` loads pg-native only when asked to (we never do): not installed, so not bundled. */
const ABSENT = ['pg-native'];

const started = Date.now();
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

// 1. The modules the server loads by path, each at its own path
const LOADED_BY_PATH = ['server/routes', 'server/db/migrations', 'server/db/seed', 'server/scripts'];
const isSource = (f) => /\.ts$/.test(f) && !/\.(test|d)\.ts$/.test(f);
const entryPoints = [
  'server/index.ts',
  ...LOADED_BY_PATH.flatMap((dir) =>
    fs
      .readdirSync(path.join(ROOT, dir))
      .filter(isSource)
      .map((f) => `${dir}/${f}`),
  ),
];

/** `import.meta.url` of our own modules becomes the address the module has in the image. */
const ownAddress = {
  name: 'own-address',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mjs)$/ }, async (a) => {
      if (a.path.includes('/node_modules/') || !a.path.startsWith(ROOT)) return undefined;
      const text = await fs.promises.readFile(a.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const there = path.join(runsFrom, path.relative(ROOT, a.path)).replace(/\.(ts|mjs)$/, '.js');
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(there).href)),
        loader: a.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};

/**
 * A package's `import('other-package')` becomes `require('other-package')`: split into a chunk of
 * its own, a CommonJS package would export only `default` (esbuild cannot list its names), and
 * @fastify/cookie's `(await import('cookie')).stringifySetCookie` would be undefined. Bundled, the
 * require gives the whole module, CommonJS or ES, at once.
 */
const packageImportsAsRequire = {
  name: 'package-imports-as-require',
  setup(build) {
    build.onLoad({ filter: /\/node_modules\/.*\.[cm]?js$/ }, async (a) => {
      const text = await fs.promises.readFile(a.path, 'utf8');
      const dynamic = /\bimport\((['"])([^'"./][^'"]*)\1\)/g;
      if (!dynamic.test(text)) return undefined;
      return {
        contents: text.replace(dynamic, (_, q, name) => `Promise.resolve(require(${q}${name}${q}))`),
        loader: 'js',
        resolveDir: path.dirname(a.path),
      };
    });
  },
};

const result = await esbuild.build({
  absWorkingDir: ROOT,
  entryPoints,
  outbase: '.',
  outdir: out,
  chunkNames: 'server/chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // function names stay for stack traces and for the libraries that read them
  keepNames: true,
  external: [...EXTERNAL, ...ABSENT],
  plugins: [ownAddress, packageImportsAsRequire],
  // CommonJS packages inside the ES modules still call require() for Node's own modules
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  metafile: true,
  logLevel: 'warning',
});

// 2. Files the server reads beside its modules
const besideModules = [];
for (const entry of fs.readdirSync(path.join(ROOT, 'server'), { withFileTypes: true, recursive: true })) {
  if (!entry.isFile() || !/\.(txt|json)$/.test(entry.name)) continue;
  const from = path.join(entry.parentPath, entry.name);
  const rel = path.relative(ROOT, from);
  fs.mkdirSync(path.dirname(path.join(out, rel)), { recursive: true });
  fs.copyFileSync(from, path.join(out, rel));
  besideModules.push(rel);
}

// 3. The packages left out of the bundle, and what they need to run
const needed = new Set();
const queue = [...EXTERNAL];
while (queue.length > 0) {
  const name = queue.pop();
  if (needed.has(name) || INSTALL_ONLY.has(name)) continue;
  const manifest = path.join(ROOT, 'node_modules', name, 'package.json');
  if (!fs.existsSync(manifest)) continue; // an optional dependency of another platform
  needed.add(name);
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  queue.push(...Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies }));
}
// what a package ships besides its code: types, source maps, docs, and its own tests and examples
const dropped = /\.(d\.ts|d\.mts|d\.cts|map|md|markdown)$|\.(test|spec)\.[cm]?[jt]s$/i;
// (at the top of a package, or of a package nested in its node_modules)
const droppedFolders =
  /(^|(^|\/)node_modules\/(@[^/]+\/)?[^/]+\/)(test|tests|__tests__|docs|example|examples|bench|benchmarks|benchmark)(\/|$)/;
for (const name of [...needed].sort()) {
  const from = path.join(ROOT, 'node_modules', name);
  const to = path.join(out, 'node_modules', name);
  fs.cpSync(from, to, {
    recursive: true,
    filter: (src) => {
      const rel = path.relative(from, src);
      if (dropped.test(src) || droppedFolders.test(rel)) return false;
      // better-sqlite3: the compiled addon, not SQLite's sources or the compiler's objects
      if (name === 'better-sqlite3')
        return !/^(deps|src)(\/|$)/.test(rel) && !/^build\/(?!Release(\/better_sqlite3\.node)?$)/.test(rel);
      return true;
    },
  });
}
if (!fs.existsSync(path.join(out, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'))) {
  console.error('container-server: better-sqlite3 is not built (npm ci must run its install script)');
  process.exit(1);
}
fs.writeFileSync(
  path.join(out, 'package.json'),
  `${JSON.stringify({ name: 'manna-site-server', private: true, type: 'module' }, null, 2)}\n`,
);

function sizeOf(dir) {
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size;
  return total;
}
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
console.log(
  `container-server: ${entryPoints.length} modules, ${Object.keys(result.metafile.outputs).length - entryPoints.length} shared chunks (${mb(sizeOf(path.join(out, 'server')))}); ` +
    `${needed.size} packages beside them (${mb(sizeOf(path.join(out, 'node_modules')))}): ${EXTERNAL.join(', ')} and what they need; ` +
    `read beside the modules: ${besideModules.join(', ')}; in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${out}` +
    (finalRoot ? ` (runs from ${finalRoot})` : ''),
);
