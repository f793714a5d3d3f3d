// The installable part of the build, run by scripts/build.mjs AFTER the prerender step (so the
// service worker's precache hashes are those of the final HTML) and before compression:
//
// 1. App icons in every size, plain and maskable, rendered from ONE source, public/icon.svg, with
//    the system Chromium (playwright-core; no new dependency, no binary download). The PNGs are
//    kept in node_modules/.cache/manna-icons by the source's hash, so later builds reuse them.
//    Without Chromium the manifest lists the SVG alone (installable in Chromium all the same) and
//    the build says so.
// 2. client/manifest.webmanifest (name, short name, description, colours, start URL, scope,
//    display standalone, icons, shortcuts to Blog, Careers and Admin).
// 3. client/sw.js: vite-plugin-pwa's injectManifest build of src/sw.ts (see vite.config.ts),
//    called through the plugin's API.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { CHROMIUM_FLAGS, chromePath } from './lib/common.mjs';

export const THEME_COLOR = '#1d4ed8';
export const BACKGROUND_COLOR = '#ffffff';

/** Plain icons ("any") and maskable icons (the artwork inside the 80 % safe zone, full bleed). */
export const ICON_SIZES = [48, 72, 96, 128, 144, 152, 192, 256, 384, 512];
export const MASKABLE_SIZES = [192, 512];
/** Share of the maskable icon the artwork takes (the safe zone is a circle of 80 %). */
const MASKABLE_SCALE = 0.78;

export const WEB_MANIFEST = {
  id: '/',
  name: 'Manna: AI editorial automation',
  short_name: 'Manna',
  description:
    'Low-cost AI automation for small and medium businesses, starting with manuscript and editorial management for journal publishers.',
  lang: 'en',
  dir: 'ltr',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  categories: ['business', 'productivity', 'education'],
};

const SHORTCUTS = [
  {
    name: 'Blog',
    short_name: 'Blog',
    description: 'Notes on writing, publishing and research',
    url: '/blog',
  },
  { name: 'Careers', short_name: 'Careers', description: 'Open positions at Manna', url: '/careers' },
  { name: 'Admin', short_name: 'Admin', description: 'The Manna back office', url: '/admin' },
];

const iconFile = (size, maskable) => `icons/${maskable ? 'maskable' : 'icon'}-${size}.png`;

/**
 * The back office's icon variant: the same artwork on the admin sidebar's navy instead of the
 * brand blue, so an installed "Manna Admin" window is told apart from the public site's app.
 */
export const ADMIN_COLOR = '#0f172a';
export function adminIconSvg(svg) {
  const out = svg.replace(`fill="${THEME_COLOR}"`, `fill="${ADMIN_COLOR}"`);
  if (out === svg)
    throw new Error(`public/icon.svg has no background fill="${THEME_COLOR}" to recolour for the admin icon`);
  return out;
}

/** The page Chromium screenshots: the SVG at `size` px, or inset on `background` for maskable. */
function iconPage(svg, size, maskable, background = THEME_COLOR) {
  const inner = maskable ? Math.round(size * MASKABLE_SCALE) : size;
  const data = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  return `<!doctype html><html><head><style>
    html,body{margin:0;width:${size}px;height:${size}px;overflow:hidden;background:${maskable ? background : 'transparent'}}
    body{display:flex;align-items:center;justify-content:center}
    img{width:${inner}px;height:${inner}px;display:block}
  </style></head><body><img src="${data}" alt=""></body></html>`;
}

async function renderIcons(svg, outDir, jobs) {
  const admin = adminIconSvg(svg);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromePath(),
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const { size, maskable, file, variant } of jobs) {
      await page.setViewportSize({ width: size, height: size });
      await page.setContent(
        variant === 'admin' ? iconPage(admin, size, maskable, ADMIN_COLOR) : iconPage(svg, size, maskable),
      );
      await page.locator('img').evaluate((img) => img.decode());
      const png = await page.screenshot({ omitBackground: !maskable, type: 'png' });
      fs.mkdirSync(path.dirname(path.join(outDir, file)), { recursive: true });
      fs.writeFileSync(path.join(outDir, file), png);
    }
  } finally {
    await browser.close();
  }
}

/** Width and height of a PNG, read from its header. */
export function pngSize(buf) {
  if (buf.length < 24 || buf.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** The back office's icons (admin.webmanifest): its own variant, plain and maskable. */
const ADMIN_ICON_JOBS = [
  { size: 192, maskable: false, file: 'icons/admin-192.png', variant: 'admin' },
  { size: 512, maskable: false, file: 'icons/admin-512.png', variant: 'admin' },
  { size: 512, maskable: true, file: 'icons/admin-maskable-512.png', variant: 'admin' },
];

/** Writes client/icons/*.png and returns the public manifest's icon list. */
export async function buildIcons({ root, clientDir }) {
  const source = path.join(root, 'public', 'icon.svg');
  const svg = fs.readFileSync(source, 'utf8');
  const jobs = [
    ...ICON_SIZES.map((size) => ({ size, maskable: false, file: iconFile(size, false) })),
    ...MASKABLE_SIZES.map((size) => ({ size, maskable: true, file: iconFile(size, true) })),
    { size: 180, maskable: true, file: 'icons/apple-touch-icon.png' },
    ...ADMIN_ICON_JOBS,
  ];
  const hash = createHash('sha256')
    .update(svg)
    .update(JSON.stringify(jobs))
    .update(iconPage('', 1, true))
    .digest('hex')
    .slice(0, 16);
  const cacheDir = path.join(root, 'node_modules', '.cache', 'manna-icons', hash);

  const svgIcon = { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' };
  if (!jobs.every((j) => fs.existsSync(path.join(cacheDir, j.file)))) {
    if (!fs.existsSync(chromePath())) {
      console.warn(
        `build-pwa: no Chromium at ${chromePath()} (set CHROME_PATH): the manifest lists the SVG icon only; ` +
          'install chromium for the PNG sizes',
      );
      return [svgIcon];
    }
    fs.rmSync(cacheDir, { recursive: true, force: true });
    await renderIcons(svg, cacheDir, jobs);
  }
  for (const { file, size } of jobs) {
    const png = fs.readFileSync(path.join(cacheDir, file));
    const { width, height } = pngSize(png);
    if (width !== size || height !== size)
      throw new Error(`${file} is ${width}x${height}, expected ${size}x${size}`);
    fs.mkdirSync(path.dirname(path.join(clientDir, file)), { recursive: true });
    fs.writeFileSync(path.join(clientDir, file), png);
  }
  return [
    ...jobs
      .filter((j) => j.file.startsWith('icons/icon-'))
      .map((j) => ({ src: `/${j.file}`, sizes: `${j.size}x${j.size}`, type: 'image/png', purpose: 'any' })),
    ...jobs
      .filter((j) => j.file.startsWith('icons/maskable-'))
      .map((j) => ({
        src: `/${j.file}`,
        sizes: `${j.size}x${j.size}`,
        type: 'image/png',
        purpose: 'maskable',
      })),
    svgIcon,
  ];
}

/**
 * The back office as its own installable app: client/admin.webmanifest, linked from the admin
 * shell only. Its own id, name and icon; start_url and scope are "/admin/" (a start address must
 * lie inside the scope, and "/admin" without the slash does not), so the installed window keeps
 * every admin screen and opens at the sign-in or the last screen. Without the PNGs (no Chromium at
 * build time) it lists the plain SVG icon.
 */
export const ADMIN_MANIFEST = {
  id: '/admin/',
  name: 'Manna Admin',
  short_name: 'Manna Admin',
  description: 'The Manna back office: job openings, applications, blog posts and messages.',
  lang: 'en',
  dir: 'ltr',
  start_url: '/admin/',
  scope: '/admin/',
  display: 'standalone',
  orientation: 'any',
  theme_color: ADMIN_COLOR,
  background_color: ADMIN_COLOR,
  categories: ['business', 'productivity'],
};

export function writeAdminManifest(clientDir, icons) {
  const pngs = icons.some((i) => i.type === 'image/png');
  const manifest = {
    ...ADMIN_MANIFEST,
    icons: pngs
      ? ADMIN_ICON_JOBS.map((j) => ({
          src: `/${j.file}`,
          sizes: `${j.size}x${j.size}`,
          type: 'image/png',
          purpose: j.maskable ? 'maskable' : 'any',
        }))
      : icons.filter((i) => i.type === 'image/svg+xml'),
  };
  fs.writeFileSync(path.join(clientDir, 'admin.webmanifest'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

export function writeWebManifest(clientDir, icons) {
  const shortcutIcon = icons.find((i) => i.sizes === '96x96') ?? icons[0];
  const manifest = {
    ...WEB_MANIFEST,
    icons,
    shortcuts: SHORTCUTS.map((s) => ({ ...s, icons: [shortcutIcon] })),
  };
  fs.writeFileSync(path.join(clientDir, 'manifest.webmanifest'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Builds client/sw.js with vite-plugin-pwa (strategy injectManifest) through its API. */
export async function buildServiceWorker({ root }) {
  const previous = process.env.MANNA_PWA_STEP;
  process.env.MANNA_PWA_STEP = 'sw';
  try {
    const { resolveConfig } = await import('vite');
    const config = await resolveConfig(
      { configFile: path.join(root, 'vite.config.ts'), root, logLevel: 'warn' },
      'build',
      'production',
      'production',
    );
    const pwa = config.plugins.find((p) => p.name === 'vite-plugin-pwa');
    if (!pwa?.api) throw new Error('vite-plugin-pwa is not in vite.config.ts');
    await pwa.api.generateSW();
  } finally {
    if (previous === undefined) delete process.env.MANNA_PWA_STEP;
    else process.env.MANNA_PWA_STEP = previous;
  }
}

/** The worker's gzip size and the precache figures scripts/lib/pwa-precache.mjs recorded. */
export function pwaFigures(dist) {
  const sw = fs.readFileSync(path.join(dist, 'client', 'sw.js'));
  const precache = JSON.parse(fs.readFileSync(path.join(dist, 'precache.json'), 'utf8'));
  return { swBytes: sw.length, swGzip: zlib.gzipSync(sw, { level: 9 }).length, ...precache };
}

export async function buildPwa({ root, dist, clientDir }) {
  const started = Date.now();
  const icons = await buildIcons({ root, clientDir });
  writeWebManifest(clientDir, icons);
  writeAdminManifest(clientDir, icons);
  await buildServiceWorker({ root, dist });
  const { swGzip, entries, bytes } = pwaFigures(dist);
  console.log(
    `pwa: ${icons.length} icons, manifests (site and admin), sw.js ${(swGzip / 1000).toFixed(1)} kB gzip, precache ${entries} files ` +
      `${(bytes / 1e6).toFixed(2)} MB, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

// `node scripts/build-pwa.mjs --sw-only` (with MANNA_DIST): the service worker step alone, over a
// build whose pages changed (the e2e update test uses it).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const dist = path.resolve(root, process.env.MANNA_DIST ?? 'dist');
  if (process.argv.includes('--sw-only')) await buildServiceWorker({ root, dist });
  else await buildPwa({ root, dist, clientDir: path.join(dist, 'client') });
}
