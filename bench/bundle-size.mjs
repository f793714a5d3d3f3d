#!/usr/bin/env node
// npm run bench:bundle [-- --no-build] [-- --url /pricing]
//
// Builds (into $MANNA_DIST or ./dist) unless --no-build is given and a build exists, starts the
// real server on a free port, opens the page in headless Chromium, waits for network idle + 2 s,
// and prints every JS and CSS file the page loaded before any interaction with raw and gzip bytes
// (gzip level 9 of the file in dist/client), the JS and CSS totals, and then every other JS chunk
// in dist/client/assets (the lazy chunks: admin, editor, ...). Figures only, no assertions.
// 1 kB = 1000 bytes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, chromePath, c } from '../scripts/lib/common.mjs';
import { ensureBuilt, sleep, startServer } from './lib/server.mjs';

const BUDGET_JS_GZIP = 120_000;

const args = process.argv.slice(2);
let pagePath = '/';
let noBuild = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--no-build') noBuild = true;
  else if (a === '--url') pagePath = args[++i] ?? '/';
  else if (a.startsWith('--url=')) pagePath = a.slice('--url='.length);
  else if (a === '--help' || a === '-h') {
    console.log('Usage: npm run bench:bundle [-- --no-build] [--url /path]');
    process.exit(0);
  } else {
    console.error(`bench:bundle: unknown argument "${a}"`);
    process.exit(2);
  }
}
if (!pagePath.startsWith('/')) pagePath = `/${pagePath}`;

const dist = await ensureBuilt('bundle', { noBuild });
const clientDir = path.join(dist, 'client');
const server = await startServer({ dist, prefix: 'bundle' });

// file -> source module, from Vite's manifest (e.g. assets/admin-x.js -> src/routes/admin/admin-app.tsx)
const sources = new Map();
try {
  const manifest = JSON.parse(fs.readFileSync(path.join(clientDir, '.vite', 'manifest.json'), 'utf8'));
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!sources.has(`/${chunk.file}`)) sources.set(`/${chunk.file}`, chunk.src ?? key);
    for (const css of chunk.css ?? [])
      if (!sources.has(`/${css}`)) sources.set(`/${css}`, `css of ${chunk.src ?? key}`);
  }
} catch {
  // no manifest: no source column
}

const gzipSize = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const kB = (n) => `${(n / 1000).toFixed(1)} kB`;

let browser;
try {
  browser = await chromium.launch({ executablePath: chromePath(), headless: true, args: CHROMIUM_FLAGS });
  // Service workers are blocked: their precache downloads are not what the page loads.
  const context = await browser.newContext({ serviceWorkers: 'block', locale: 'en-US' });
  const page = await context.newPage();

  const loaded = new Map(); // url -> { type, response }
  let documentResponse = null;
  page.on('response', (response) => {
    const req = response.request();
    const url = response.url();
    if (req.resourceType() === 'document' && req.frame() === page.mainFrame() && !documentResponse)
      documentResponse = response;
    const type = classify(url, req.resourceType(), response.headers()['content-type'] ?? '');
    if (type && !loaded.has(url)) loaded.set(url, { type, response });
  });

  const target = new URL(pagePath, server.origin).href;
  const res = await page.goto(target, { waitUntil: 'networkidle', timeout: 60_000 });
  await sleep(2000);

  const rows = [];
  for (const [url, { type, response }] of loaded) {
    const u = new URL(url);
    const local = u.origin === server.origin ? fileInDist(u.pathname) : null;
    let raw;
    let gz;
    if (local) {
      const buf = fs.readFileSync(local);
      raw = buf.length;
      gz = gzipSize(buf);
    } else {
      const buf = await response.body().catch(() => Buffer.alloc(0));
      raw = buf.length;
      gz = gzipSize(buf);
    }
    const name = u.origin === server.origin ? u.pathname : url;
    rows.push({ name: local ? name : `${name} (not in dist)`, type, raw, gz });
  }
  rows.sort((a, b) => (a.type === b.type ? b.gz - a.gz : a.type.localeCompare(b.type)));

  console.log('');
  console.log(
    c.bold(`Loaded before any interaction: ${pagePath}  (HTTP ${res?.status() ?? '?'}, network idle + 2 s)`),
  );
  const width = Math.max(40, ...rows.map((r) => r.name.length)) + 2;
  const line = (a, b, raw, gz, src = '') =>
    `  ${a.padEnd(width)} ${b.padEnd(5)} ${raw.padStart(12)} ${gz.padStart(12)}${src ? `  ${src}` : ''}`;
  console.log(c.dim(line('file', 'type', 'raw bytes', 'gzip bytes', 'source')));
  for (const r of rows)
    console.log(
      line(
        r.name,
        r.type,
        r.raw.toLocaleString('en'),
        r.gz.toLocaleString('en'),
        c.dim(sources.get(r.name) ?? ''),
      ),
    );
  const sum = (type, key) => rows.filter((r) => r.type === type).reduce((n, r) => n + r[key], 0);
  const jsGz = sum('js', 'gz');
  const cssGz = sum('css', 'gz');
  console.log(c.dim(line('', '', '', '')).trimEnd());
  const budget = `${jsGz <= BUDGET_JS_GZIP ? c.green('within') : c.red('OVER')} budget ${kB(BUDGET_JS_GZIP)} gzip`;
  console.log(
    `${line(`total JS (${rows.filter((r) => r.type === 'js').length} files)`, 'js', sum('js', 'raw').toLocaleString('en'), jsGz.toLocaleString('en'))}   = ${kB(jsGz)} gzip, ${budget}`,
  );
  console.log(
    `${line(`total CSS (${rows.filter((r) => r.type === 'css').length} files)`, 'css', sum('css', 'raw').toLocaleString('en'), cssGz.toLocaleString('en'))}   = ${kB(cssGz)} gzip`,
  );
  if (documentResponse) {
    const body = await documentResponse.body().catch(() => Buffer.alloc(0));
    console.log(
      c.dim(
        `${line('HTML document (not in totals)', 'html', body.length.toLocaleString('en'), gzipSize(body).toLocaleString('en'))}`,
      ),
    );
  }

  // every other chunk in dist/client/assets: loaded later (lazy routes, admin, editor, ...)
  const loadedFiles = new Set(rows.map((r) => r.name));
  const assetsDir = path.join(clientDir, 'assets');
  const others = [];
  for (const f of listFiles(assetsDir)) {
    if (!/\.(m?js|css)$/.test(f)) continue;
    const urlPath = `/${path.relative(clientDir, f).split(path.sep).join('/')}`;
    if (loadedFiles.has(urlPath)) continue;
    const buf = fs.readFileSync(f);
    others.push({
      name: urlPath,
      type: f.endsWith('.css') ? 'css' : 'js',
      raw: buf.length,
      gz: gzipSize(buf),
    });
  }
  others.sort((a, b) => (a.type === b.type ? b.gz - a.gz : b.type.localeCompare(a.type)));
  console.log('');
  console.log(c.bold(`Not loaded by ${pagePath} (lazy chunks in dist/client/assets)`));
  const w2 = Math.max(40, ...others.map((r) => r.name.length)) + 2;
  const line2 = (a, b, raw, gz, src = '') =>
    `  ${a.padEnd(w2)} ${b.padEnd(5)} ${raw.padStart(12)} ${gz.padStart(12)}${src ? `  ${src}` : ''}`;
  console.log(c.dim(line2('file', 'type', 'raw bytes', 'gzip bytes', 'source')));
  for (const r of others)
    console.log(
      line2(
        r.name,
        r.type,
        r.raw.toLocaleString('en'),
        r.gz.toLocaleString('en'),
        c.dim(sources.get(r.name) ?? ''),
      ),
    );
  const othersJs = others.filter((r) => r.type === 'js');
  console.log(
    `  ${othersJs.length} other JS chunks, ${othersJs.reduce((n, r) => n + r.gz, 0).toLocaleString('en')} gzip bytes in all`,
  );
  if (!others.length) console.log('  (none)');
  console.log('');
} finally {
  await browser?.close().catch(() => {});
  await server.stop();
}

function classify(url, resourceType, contentType) {
  const pathname = (() => {
    try {
      return new URL(url).pathname;
    } catch {
      return url;
    }
  })();
  if (url.startsWith('data:')) return null;
  if (resourceType === 'stylesheet' || /\.css$/.test(pathname) || contentType.includes('text/css'))
    return 'css';
  if (resourceType === 'script' || /\.m?js$/.test(pathname) || /javascript|ecmascript/.test(contentType))
    return 'js';
  return null;
}

/** The file in dist/client that the server sent for this path, if there is one. */
function fileInDist(pathname) {
  const file = path.join(clientDir, decodeURIComponent(pathname));
  if (!file.startsWith(clientDir + path.sep)) return null;
  try {
    return fs.statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

function listFiles(dir) {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}
