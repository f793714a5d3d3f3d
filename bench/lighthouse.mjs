#!/usr/bin/env node
// npm run bench:lighthouse [-- [pages...] [--all] [--desktop] [--runs 3] [--no-build] [--save] [--repeat] [--realistic] [--vs URL [--vs-paths a,b]]]
//
// Lighthouse 12 (Node API) against the built app served by the real server, in the system
// Chromium. Mobile form factor unless --desktop. Pages default to / and /ComingSoon; --all takes
// every route of ${dist}/pages/manifest.json. Each page runs 3 times (--runs N); the table shows
// the median of each figure. Offline: Chromium's background networking is off and every host name
// other than the local server fails to resolve at once, so nothing external is fetched.
// --repeat: a repeat visit with the service worker: one unmeasured visit first (it installs the
// worker and its precache), then runs that keep the browser's storage (disableStorageReset).
// --vs URL: the same pages of another site (its origin, e.g. a static build served on this machine)
// in the same run, alternating ours and theirs page by page and run by run, so both see the same
// machine load; prints a side-by-side table of performance, LCP and the JavaScript each page
// transferred. --vs-paths lists the other site's paths in the same order as ours ('-' skips one).
// --realistic: the site holds what a year brings (bench/lib/realistic.mjs: 20 openings, 10 posts of
// mixed length with covers, one with images in its text), put in through the API before the runs;
// pages default to /blog, the tag page, the post with images and /careers ('@post' and '@tag' name
// the seeded post and tag page among other pages).
import fs from 'node:fs';
import path from 'node:path';
import lighthouse, { desktopConfig } from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { CHROMIUM_FLAGS, ROOT, c, chromePath, log } from '../scripts/lib/common.mjs';
import { ensureBuilt, startServer } from './lib/server.mjs';
import { REALISTIC_OWNER, seedRealistic } from './lib/realistic.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

// ---- arguments
const args = process.argv.slice(2);
const pages = [];
let all = false;
let desktop = false;
let runs = 3;
let noBuild = false;
let save = false;
let repeat = false;
let vs = null;
let vsPaths = null;
let realistic = false;
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--all') all = true;
  else if (a === '--desktop') desktop = true;
  else if (a === '--mobile') desktop = false;
  else if (a === '--no-build') noBuild = true;
  else if (a === '--save') save = true;
  else if (a === '--repeat') repeat = true;
  else if (a === '--realistic') realistic = true;
  else if (a === '--vs') vs = args[++i];
  else if (a.startsWith('--vs=')) vs = a.slice(5);
  else if (a === '--vs-paths') vsPaths = (args[++i] ?? '').split(',');
  else if (a.startsWith('--vs-paths=')) vsPaths = a.slice(11).split(',');
  else if (a === '--runs') runs = Math.max(1, Number(args[++i]) || 3);
  else if (a.startsWith('--runs=')) runs = Math.max(1, Number(a.slice(7)) || 3);
  else if (a === '--help' || a === '-h') {
    console.log(
      'Usage: npm run bench:lighthouse [-- [/path ...] [--all] [--desktop] [--runs N] [--no-build] [--save] [--repeat] [--realistic]]',
    );
    process.exit(0);
  } else if (a.startsWith('--')) {
    console.error(`bench:lighthouse: unknown option "${a}"`);
    process.exit(2);
  } else pages.push(a.startsWith('/') ? a : `/${a}`);
}

const dist = await ensureBuilt('lighthouse', { noBuild });
if (all) {
  const manifestFile = path.join(dist, 'pages', 'manifest.json');
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  } catch (err) {
    console.error(`bench:lighthouse: --all needs ${manifestFile}: ${err.message}`);
    process.exit(1);
  }
  pages.push(...routesOf(manifest).filter((p) => !pages.includes(p)));
}
if (!pages.length)
  pages.push(...(realistic ? ['/blog', '/@tag', '/@post', '/careers'] : ['/', '/ComingSoon']));
let vsOrigin = null;
if (vs) {
  try {
    vsOrigin = new URL(vs).origin;
  } catch {
    console.error(`bench:lighthouse: --vs needs an address such as http://127.0.0.1:4321, not "${vs}"`);
    process.exit(2);
  }
}
/** The other site's path for each of ours (null: not compared). */
const theirPath = (page, index) => {
  const p = vsPaths?.[index] ?? page;
  return p === '-' || p === '' ? null : p.startsWith('/') ? p : `/${p}`;
};

const server = await startServer({
  dist,
  prefix: 'lighthouse',
  env: realistic ? { ADMIN_EMAIL: REALISTIC_OWNER.email, ADMIN_PASSWORD: REALISTIC_OWNER.password } : {},
});
const serverHost = new URL(server.origin).hostname;
if (realistic) {
  const started = Date.now();
  const seeded = await seedRealistic({ origin: server.origin, dataDir: path.dirname(server.logFile) }).catch(
    async (err) => {
      await server.stop();
      throw err;
    },
  );
  for (const [i, p] of pages.entries()) {
    if (p === '/@post') pages[i] = seeded.postWithImages;
    if (p === '/@tag') pages[i] = seeded.tagPage;
  }
  log(
    'lighthouse',
    `realistic content put in through the API in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

let chrome;
const results = []; // { page, lhrs: [lhr] }
const vsResults = []; // the --vs site's, { page: its path, ours: our path, lhrs }
const saveDir = save
  ? path.join(ROOT, 'bench', 'results', `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}`)
  : null;
try {
  chrome = await chromeLauncher.launch({
    chromePath: chromePath(),
    logLevel: 'silent',
    chromeFlags: [
      '--headless=new',
      ...CHROMIUM_FLAGS,
      // offline: any other host fails to resolve immediately instead of timing out
      `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${serverHost}, EXCLUDE localhost${vsOrigin ? `, EXCLUDE ${new URL(vsOrigin).hostname}` : ''}`,
    ],
  });
  const flags = {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: CATEGORIES,
    disableFullPageScreenshot: true,
    // --repeat: keep the service worker, its caches and IndexedDB between the visits
    ...(repeat ? { disableStorageReset: true } : {}),
  };
  const config = desktop ? desktopConfig : undefined;
  log(
    'lighthouse',
    `${desktop ? 'desktop' : 'mobile'}${repeat ? ', repeat visits' : ''}, ${runs} run(s) per page, ${pages.length} page(s): ${pages.join(' ')}`,
  );
  if (vsOrigin) log('lighthouse', `against ${vsOrigin}, alternating page by page`);
  const sites = [{ name: 'ours', origin: server.origin, results }];
  if (vsOrigin) sites.push({ name: 'theirs', origin: vsOrigin, results: vsResults });
  for (const [index, page] of pages.entries()) {
    const targets = sites
      .map((site) => ({ site, path: site.name === 'ours' ? page : theirPath(page, index), lhrs: [] }))
      .filter((t) => t.path);
    if (repeat) for (const t of targets) await warmUp(chrome.port, new URL(t.path, t.site.origin).href);
    for (let i = 0; i < runs; i++) {
      // ours, then theirs, in every run: both pages see the same moment of the machine
      for (const t of targets) {
        const url = new URL(t.path, t.site.origin).href;
        const started = Date.now();
        const result = await lighthouse(url, flags, config);
        const lhr = result?.lhr;
        if (!lhr) throw new Error(`Lighthouse returned no result for ${url}`);
        t.lhrs.push(lhr);
        const perf = score(lhr, 'performance');
        console.log(
          c.dim(
            `  ${vsOrigin ? `${t.site.name} ` : ''}${t.path} run ${i + 1}/${runs}: performance ${perf ?? 'error'}${lhr.runtimeError ? ` (${lhr.runtimeError.code})` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
          ),
        );
        if (saveDir) {
          fs.mkdirSync(saveDir, { recursive: true });
          const base = t.path === '/' ? 'home' : t.path.replace(/^\//, '').replace(/[^\w-]+/g, '_');
          const name = `${t.site.name === 'ours' ? '' : 'vs-'}${base}-${i + 1}.json`;
          fs.writeFileSync(path.join(saveDir, name), JSON.stringify(lhr));
        }
      }
    }
    for (const t of targets) t.site.results.push({ page: t.path, ours: page, lhrs: t.lhrs });
  }
} finally {
  await chrome?.kill();
  await server.stop();
}

// ---- table
const median = (values) => {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
};
const numeric = (lhr, id) => lhr.audits[id]?.numericValue;

const rows = results.map(({ page, lhrs }) => ({
  page,
  perf: median(lhrs.map((l) => score(l, 'performance'))),
  a11y: median(lhrs.map((l) => score(l, 'accessibility'))),
  bp: median(lhrs.map((l) => score(l, 'best-practices'))),
  seo: median(lhrs.map((l) => score(l, 'seo'))),
  lcp: median(lhrs.map((l) => numeric(l, 'largest-contentful-paint'))),
  tbt: median(lhrs.map((l) => numeric(l, 'total-blocking-time'))),
  cls: median(lhrs.map((l) => numeric(l, 'cumulative-layout-shift'))),
}));

const fmt = (v, digits = 0) => (v == null ? 'n/a' : v.toFixed(digits));
const scoreCell = (v) => {
  const s = fmt(v);
  return v == null ? s : v >= 90 ? c.green(s) : v >= 50 ? c.yellow(s) : c.red(s);
};
const w = Math.max(12, ...rows.map((r) => r.page.length)) + 2;
console.log('');
console.log(
  c.bold(
    `Lighthouse ${desktop ? 'desktop' : 'mobile'}: median of ${runs} run(s) per page (${server.origin})`,
  ),
);
const header = `  ${'page'.padEnd(w)} ${'perf'.padStart(5)} ${'a11y'.padStart(5)} ${'b-p'.padStart(5)} ${'seo'.padStart(5)} ${'LCP ms'.padStart(8)} ${'TBT ms'.padStart(7)} ${'CLS'.padStart(6)}`;
console.log(c.dim(header));
for (const r of rows) {
  // pad before colouring so ANSI codes do not upset the alignment
  const cell = (v, n) => ' '.repeat(Math.max(0, n - fmt(v).length)) + scoreCell(v);
  console.log(
    `  ${r.page.padEnd(w)} ${cell(r.perf, 5)} ${cell(r.a11y, 5)} ${cell(r.bp, 5)} ${cell(r.seo, 5)} ${fmt(r.lcp).padStart(8)} ${fmt(r.tbt).padStart(7)} ${fmt(r.cls, 3).padStart(6)}`,
  );
}

// ---- what kept a category below 100 (from the run with the median performance score)
const notes = [];
for (const { page, lhrs } of results) {
  const sorted = [...lhrs].sort((a, b) => (score(a, 'performance') ?? -1) - (score(b, 'performance') ?? -1));
  const lhr = sorted[Math.floor(sorted.length / 2)];
  for (const id of CATEGORIES) {
    const cat = lhr.categories[id];
    if (!cat || cat.score === 1) continue;
    const failing = cat.auditRefs
      .filter((ref) => ref.weight > 0 || id === 'performance')
      .map((ref) => lhr.audits[ref.id])
      .filter(
        (a) =>
          a &&
          a.score !== null &&
          a.score < 1 &&
          a.scoreDisplayMode !== 'informative' &&
          a.scoreDisplayMode !== 'notApplicable' &&
          a.scoreDisplayMode !== 'manual',
      )
      .map(
        (a) => `${a.id} (${a.displayValue ? `${a.displayValue}, ` : ''}score ${Math.round(a.score * 100)})`,
      );
    if (failing.length) notes.push(`  ${page} ${id}: ${failing.join('; ')}`);
  }
  for (const warning of lhr.runWarnings ?? []) notes.push(`  ${page} warning: ${warning}`);
}
if (notes.length) {
  console.log('');
  console.log(c.bold('Below 100 / warnings (median run):'));
  for (const n of [...new Set(notes)]) console.log(n);
}
if (vsOrigin) {
  // JavaScript the page transferred (Lighthouse's resource summary: bytes on the wire, compressed)
  const scriptKb = (lhr) => {
    const row = lhr.audits['resource-summary']?.details?.items?.find((i) => i.resourceType === 'script');
    return row ? row.transferSize / 1000 : null;
  };
  const seconds = (ms) => (ms == null ? null : ms / 1000);
  const cellOf = (lhrs) =>
    lhrs
      ? `${fmt(median(lhrs.map((l) => score(l, 'performance'))))} / ${fmt(seconds(median(lhrs.map((l) => numeric(l, 'largest-contentful-paint')))), 2)} s / ${fmt(median(lhrs.map(scriptKb)))} KB`
      : '-';
  console.log('');
  console.log(c.bold(`Side by side, median of ${runs} run(s): performance / LCP / JavaScript transferred`));
  const pw = Math.max(8, ...pages.map((p) => p.length)) + 2;
  console.log(c.dim(`  ${'page'.padEnd(pw)} ${'ours'.padEnd(26)} ${vsOrigin}`));
  for (const r of results) {
    const theirs = vsResults.find((v) => v.ours === r.page);
    console.log(
      `  ${r.page.padEnd(pw)} ${cellOf(r.lhrs).padEnd(26)} ${theirs ? `${cellOf(theirs.lhrs)} (${theirs.page})` : '-'}`,
    );
  }
}
if (saveDir) console.log(`\nReports saved in ${path.relative(ROOT, saveDir)}`);
console.log('');

/**
 * The first visit of a repeat-visit measurement: opens the page in the same Chromium (over the
 * DevTools protocol) and waits until a service worker controls it and is activated, so its precache
 * is complete before the measured visits.
 */
async function warmUp(port, url) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(
      async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated',
      null,
      { timeout: 60_000, polling: 250 },
    );
    await page.close();
  } finally {
    await browser.close(); // disconnects; the Chromium of the runs goes on
  }
}

function score(lhr, id) {
  const s = lhr.categories?.[id]?.score;
  return typeof s === 'number' ? Math.round(s * 100) : null;
}

/** Routes from the prerender manifest: { routes: { path: name } } or a list of paths/entries. */
function routesOf(manifest) {
  const r = manifest.routes ?? manifest.pages ?? manifest;
  const list = Array.isArray(r)
    ? r.map((e) => (typeof e === 'string' ? e : (e.path ?? e.route ?? e.url)))
    : Object.keys(r);
  return list.filter(
    (p) => typeof p === 'string' && p.startsWith('/') && !p.includes(':') && !p.includes('*'),
  );
}
