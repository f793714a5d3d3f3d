#!/usr/bin/env node
// Hydration check: production React hides attribute mismatches, so this builds the app
// with React's development build, serves it with the real server, opens every prerendered route
// and the pages rendered on request (/blog, /careers, /pricing, a post, a tag page, a job's page)
// in every language of the site in headless Chromium, each twice (the second load may come from
// the service worker's copy), and reports any console error or warning React prints while
// hydrating. Exit code 1 when one is found. `.ci/run` runs it.
//   node scripts/check-hydration.mjs [--no-build]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = process.env.HYDRATION_DIST ?? path.join(os.tmpdir(), 'manna-dist-dev');
const port = Number(process.env.HYDRATION_PORT ?? 4185);
const base = `http://127.0.0.1:${port}`;

if (!process.argv.includes('--no-build') || !fs.existsSync(path.join(dist, 'pages', 'manifest.json'))) {
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, MANNA_DIST: dist, NODE_ENV: 'development' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-hydration-'));
const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server', 'index.ts')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DIST_DIR: dist, LOG_LEVEL: 'warn', NODE_ENV: 'development' },
});
const stop = () => {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
};

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch (err) {
      if (i === 100) console.error(err);
    }
    if (i > 100) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(dist, 'pages', 'manifest.json'), 'utf8'));
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // the pages rendered on request, found through the site's own links
  const linkIn = async (page, pattern) => {
    const html = await (await fetch(base + page)).text();
    return pattern.exec(html)?.[1];
  };
  const post = await linkIn('/blog', /href="(\/blog\/(?!tag\/|page\/|preview\/)[a-z0-9-]+)"/);
  const job = await linkIn('/careers', /href="(\/careers\/\d+[^"]*)"/);
  if (!post || !job) throw new Error(`a page rendered on request was not found: post ${post}, job ${job}`);
  // a tag page when the seeded posts have tags
  const tag = await linkIn(post, /href="(\/blog\/tag\/[a-z0-9-]+)"/);
  const onRequest = ['/blog', '/careers', '/pricing', post, job, ...(tag ? [tag] : [])];
  const routes = [...new Set([...Object.keys(manifest.routes), ...onRequest, '/no-such-page'])];
  const problems = [];
  let checked = 0;
  for (const lang of ['en', 'fr', 'de', 'es', 'ml']) {
    // each language at its own addresses (docs/decisions/041-language-addresses.md)
    const context = await browser.newContext();
    const at = (route) => (lang === 'en' ? route : route === '/' ? `/${lang}` : `/${lang}${route}`);
    const page = await context.newPage();
    let current = '';
    page.on('console', (m) => {
      if (m.type() !== 'error' && !/hydrat|did not match|server rendered/i.test(m.text())) return;
      // The not-found page logs its path (a warning) and is itself served with status 404.
      if (/404 Error: User attempted/.test(m.text())) return;
      if (current.includes('/no-such-page') && /status of 404/.test(m.text())) return;
      problems.push(`${lang} ${current}: [${m.type()}] ${m.text().slice(0, 300)}`);
    });
    page.on('pageerror', (e) => problems.push(`${lang} ${current}: ${e.message}`));
    const hydrated = () =>
      page.waitForFunction(() => document.getElementById('root')?.dataset.hydrated === 'true', null, { timeout: 15000 });
    for (const route of routes) {
      current = at(route);
      await page.goto(base + at(route));
      await hydrated();
      checked++;
      // again, as a reader coming back does: the service worker may answer with its copy
      current = `${at(route)} (reloaded)`;
      await page.reload();
      await hydrated();
      checked++;
    }
    await context.close();
  }
  await browser.close();
  console.log(
    `hydration: ${checked} page loads (${routes.length} pages, development React, en fr de es ml, each loaded twice), ${problems.length} problem(s)`,
  );
  for (const p of problems) console.log(`  ${p}`);
  stop();
  process.exit(problems.length ? 1 : 0);
} catch (err) {
  stop();
  console.error(err);
  process.exit(1);
}
