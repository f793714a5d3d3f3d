// Helpers shared by scripts/start.mjs, scripts/test.mjs and bench/*.mjs. Node built-ins only:
// this file runs before `npm ci` on a fresh clone.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Flags for the system Chromium on this closed network. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DEFAULT_CHROME = '/usr/bin/chromium';

export function chromePath() {
  return process.env.CHROME_PATH || DEFAULT_CHROME;
}

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (s) => (useColor ? `\x1b[${code}m${s}\x1b[0m` : String(s));
export const c = {
  bold: paint(1),
  dim: paint(2),
  red: paint(31),
  green: paint(32),
  yellow: paint(33),
  cyan: paint(36),
};

export function log(prefix, message) {
  console.log(`${c.cyan(`[${prefix}]`)} ${message}`);
}

/** Path of a binary installed in node_modules/.bin (faster than npx, no network lookups). */
export function bin(name) {
  return path.join(ROOT, 'node_modules', '.bin', name);
}

/**
 * Runs a command with inherited stdio (output streamed). Resolves with { code, signal, timedOut };
 * never rejects on a non-zero exit. `onSpawn` receives the child (for signal forwarding).
 * `group: true` starts it in its own process group, so that `killGroup` (and the timeout) also
 * end its workers; whatever is left of the group when the command exits is ended too.
 */
export function run(
  cmd,
  args,
  { env, cwd = ROOT, onSpawn, stdio = 'inherit', group = false, timeoutMs } = {},
) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: env ?? process.env, stdio, detached: group });
    onSpawn?.(child);
    let timedOut = false;
    let timer;
    if (timeoutMs) {
      timer = setTimeout(() => {
        timedOut = true;
        console.error(
          c.red(`\n${path.basename(cmd)}: no result after ${Math.round(timeoutMs / 1000)} s; stopping it`),
        );
        killGroup(child, 'SIGTERM');
        setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
      }, timeoutMs);
      timer.unref();
    }
    child.on('error', (err) => {
      clearTimeout(timer);
      console.error(`${cmd}: ${err.message}`);
      resolve({ code: 127, signal: null, timedOut });
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (group) killGroup(child, 'SIGKILL'); // leftover workers of a finished command
      resolve({ code: code ?? (signal ? 128 : 1), signal, timedOut });
    });
  });
}

/** Sends a signal to the child's process group when it has one, else to the child. */
export function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // gone
    }
  }
}

function mtimeMs(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// Install check
// ---------------------------------------------------------------------------------------------

/** Why `npm ci`/`npm install` is needed, or null when node_modules is up to date. */
export function installReason() {
  const nodeModules = path.join(ROOT, 'node_modules');
  if (!fs.existsSync(nodeModules)) return 'node_modules is missing';
  const hidden = path.join(nodeModules, '.package-lock.json');
  if (!fs.existsSync(hidden)) return 'node_modules/.package-lock.json is missing';
  const lock = path.join(ROOT, 'package-lock.json');
  if (fs.existsSync(lock) && mtimeMs(lock) > mtimeMs(hidden))
    return 'package-lock.json changed since the last install';
  if (!fs.existsSync(lock) && mtimeMs(path.join(ROOT, 'package.json')) > mtimeMs(hidden))
    return 'package.json changed since the last install';
  return null;
}

let nativeBuilds = Promise.resolve(true);

/** Resolves true once the native builds a deferred install left running are done (or none). */
export const nativeBuildsDone = () => nativeBuilds;

/**
 * Runs `npm ci` (or `npm install` without a lockfile) when needed. Returns true when all is well.
 *
 * With `deferNativeBuilds`, packages are installed without their install scripts; the scripts of
 * packages that compile native code (a binding.gyp: better-sqlite3, about a minute here) then run
 * in the background and `nativeBuildsDone()` says when they are over, while the other scripts
 * (esbuild's) run at once. npm test uses it to typecheck, lint and build meanwhile. Until the
 * native builds succeed node_modules/.package-lock.json is kept aside, so an interrupted or failed
 * build means a fresh install next time.
 */
export async function ensureInstall(prefix, { deferNativeBuilds = false } = {}) {
  const reason = installReason();
  if (!reason) return true;
  const hasLock = fs.existsSync(path.join(ROOT, 'package-lock.json'));
  const flags = [
    '--include=dev',
    '--no-audit',
    '--no-fund',
    ...(deferNativeBuilds ? ['--ignore-scripts'] : []),
  ];
  let installed = false;
  if (hasLock) {
    log(prefix, `${reason}: running npm ci ${flags.join(' ')}`);
    let stderr = '';
    const { code } = await run('npm', ['ci', ...flags], {
      stdio: ['inherit', 'inherit', 'pipe'],
      onSpawn: (child) =>
        child.stderr.on('data', (chunk) => {
          process.stderr.write(chunk);
          stderr += chunk;
        }),
    });
    installed = code === 0;
    // npm 11's `npm ci` insists on lockfile entries for every platform's optional package (e.g.
    // @rollup/rollup-android-arm64). A registry mirror without those packages cannot produce them
    // (npm/cli#4828), so `npm ci` refuses a lockfile that `npm install` accepts as it is.
    if (!installed && !/EUSAGE|in sync/.test(stderr)) {
      console.error(c.red(`[${prefix}] npm ci failed (exit code ${code})`));
      return false;
    }
    if (!installed)
      log(prefix, 'npm ci says the lockfile is not in sync with package.json; trying npm install');
  } else {
    log(prefix, `${reason}: running npm install ${flags.join(' ')}`);
  }
  if (!installed) {
    const { code } = await run('npm', ['install', ...flags]);
    if (code !== 0) {
      console.error(c.red(`[${prefix}] npm install failed (exit code ${code})`));
      return false;
    }
  }
  return deferNativeBuilds ? runInstallScripts(prefix) : true;
}

/** 'node_modules/@scope/name' -> '@scope/name' */
const packageName = (location) => location.replace(/^.*node_modules\//, '');

/** The install scripts `--ignore-scripts` skipped: the quick ones now, native builds in the background. */
async function runInstallScripts(prefix) {
  const query = spawnSync(
    'npm',
    ['query', ':is(:attr(scripts, [preinstall]), :attr(scripts, [install]), :attr(scripts, [postinstall]))'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (query.status !== 0) {
    console.error(c.red(`[${prefix}] npm query failed: ${query.stderr}`));
    return false;
  }
  const scripted = new Set(JSON.parse(query.stdout).map((pkg) => pkg.location));
  // npm runs `node-gyp rebuild` for a package with a binding.gyp even without an install script
  for (const dir of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    const names = dir.startsWith('@')
      ? fs.readdirSync(path.join(ROOT, 'node_modules', dir)).map((name) => `${dir}/${name}`)
      : [dir];
    for (const name of names)
      if (fs.existsSync(path.join(ROOT, 'node_modules', name, 'binding.gyp')))
        scripted.add(`node_modules/${name}`);
  }
  const isNative = (location) => fs.existsSync(path.join(ROOT, location, 'binding.gyp'));
  const quick = [...scripted].filter((location) => !isNative(location));
  const native = [...scripted].filter(isNative);
  if (quick.length > 0) {
    const { code } = await run('npm', ['rebuild', ...quick.map(packageName)]);
    if (code !== 0) {
      console.error(c.red(`[${prefix}] install scripts failed (exit code ${code})`));
      return false;
    }
  }
  if (native.length > 0) {
    const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
    const aside = `${marker}.pending`;
    if (fs.existsSync(marker)) fs.renameSync(marker, aside);
    const logFile = path.join(ROOT, 'node_modules', '.native-builds.log');
    const out = fs.openSync(logFile, 'w');
    const started = Date.now();
    log(prefix, `building ${native.map(packageName).join(', ')} in the background`);
    nativeBuilds = run('npm', ['rebuild', ...native.map(packageName)], {
      stdio: ['ignore', out, out],
    }).then(({ code }) => {
      fs.closeSync(out);
      if (code !== 0) {
        console.error(c.red(`[${prefix}] native builds failed (exit code ${code}):`));
        console.error(fs.readFileSync(logFile, 'utf8').slice(-4000));
        return false;
      }
      if (fs.existsSync(aside)) fs.renameSync(aside, marker);
      log(prefix, `native builds done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return true;
    });
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Build freshness
// ---------------------------------------------------------------------------------------------

export const STAMP = '.manna-build.json';

/** A path relative to the repository when it is inside it, absolute otherwise. */
export function displayPath(p) {
  const rel = path.relative(ROOT, p);
  return rel.startsWith('..') || path.isAbsolute(rel) ? p : rel || '.';
}

export function distDir() {
  return path.resolve(ROOT, process.env.MANNA_DIST ?? 'dist');
}

/** Build-time settings: Vite inlines VITE_* variables, so a change of any of them needs a rebuild. */
function buildEnv() {
  return Object.fromEntries(
    Object.entries(process.env)
      .filter(([k]) => k.startsWith('VITE_'))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

function* walk(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield p;
  }
}

/** Newest modification time among everything the build reads. */
export function newestSourceMtime() {
  let newest = 0;
  let newestFile = '';
  const consider = (file) => {
    const m = mtimeMs(file);
    if (m > newest) [newest, newestFile] = [m, file];
  };
  for (const dir of ['src', 'public'])
    for (const f of walk(path.join(ROOT, dir))) if (!/\.test\.[cm]?[jt]sx?$/.test(f)) consider(f);
  // the build scripts (build.mjs, prerender.mjs and the helpers they import): everything under
  // scripts/ except the entry points that are not part of the build
  const notBuild = /^(start\.mjs|test[^/]*\.mjs|check-[^/]*|lib\/common\.mjs|.*\.md)$/;
  for (const f of walk(path.join(ROOT, 'scripts'))) {
    const rel = path.relative(path.join(ROOT, 'scripts'), f).split(path.sep).join('/');
    if (!notBuild.test(rel)) consider(f);
  }
  for (const name of fs.readdirSync(ROOT)) {
    if (/^(index\.html|vite\.config\.[cm]?[jt]s|tsconfig.*\.json|package(-lock)?\.json|\.env.*)$/.test(name))
      consider(path.join(ROOT, name));
  }
  return { newest, newestFile };
}

/**
 * Is the build in `dist` newer than every input, with the same VITE_* settings? Returns
 * { fresh, reason }.
 */
export function buildFreshness(dist = distDir()) {
  const stampFile = path.join(dist, STAMP);
  let builtAt = mtimeMs(stampFile);
  if (builtAt) {
    try {
      const stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
      if (JSON.stringify(stamp.env ?? {}) !== JSON.stringify(buildEnv()))
        return { fresh: false, reason: 'VITE_* settings differ from the last build' };
    } catch {
      return { fresh: false, reason: `${STAMP} is unreadable` };
    }
  } else {
    // built by a plain `npm run build`: trust the time of its last output (the prerender manifest)
    builtAt =
      mtimeMs(path.join(dist, 'pages', 'manifest.json')) || mtimeMs(path.join(dist, 'client', 'index.html'));
  }
  if (!builtAt) return { fresh: false, reason: `no build in ${displayPath(dist)}` };
  const { newest, newestFile } = newestSourceMtime();
  if (newest > builtAt) return { fresh: false, reason: `${displayPath(newestFile)} is newer than the build` };
  return { fresh: true, reason: 'build is up to date' };
}

/** `npm run build` into `dist`, then writes the stamp. Returns the exit code. */
export async function runBuild(dist = distDir(), { onSpawn, group, timeoutMs, stdio } = {}) {
  const { code } = await run('npm', ['run', 'build'], {
    env: { ...process.env, MANNA_DIST: dist },
    onSpawn,
    group,
    timeoutMs,
    stdio,
  });
  if (code === 0) {
    fs.mkdirSync(dist, { recursive: true });
    fs.writeFileSync(
      path.join(dist, STAMP),
      JSON.stringify({ builtAt: new Date().toISOString(), env: buildEnv() }, null, 2) + '\n',
    );
  }
  return code;
}

// ---------------------------------------------------------------------------------------------
// Ports, server
// ---------------------------------------------------------------------------------------------

/** A TCP port that is free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Installs Debian packages (apt-get update, then install) when this process is root; answers
 * `{ ok, output }` with the last lines apt printed. Not root: `{ ok: false }` with what to run.
 */
export function aptInstall(packages) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) return { ok: false, output: `not root: run  sudo apt-get install -y ${packages.join(' ')}` };
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { env, encoding: 'utf8' });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { env, encoding: 'utf8' });
  const output = `${update.stderr ?? ''}${install.stdout ?? ''}${install.stderr ?? ''}`
    .trim()
    .split('\n')
    .slice(-15)
    .join('\n');
  return { ok: install.status === 0, output };
}

/** Is `cmd` on PATH? */
export function which(cmd) {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}
