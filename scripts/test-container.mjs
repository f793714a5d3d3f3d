#!/usr/bin/env node
// `npm run test:container`: builds the container image from this checkout and proves it runs.
//
//  1. podman, runc, debootstrap and podman-compose (installed from Debian's packages when missing
//     and we are root; otherwise the stage fails saying what is missing); the Node 24 base images
//     from Debian's packages and the npm registry (scripts/container-base.sh);
//  2. the image (Dockerfile): its size (at most 250 MB), its account (not root), and what it must
//     not hold: dev dependencies, .git, tests, secrets;
//  3. on SQLite with a volume: it refuses to start without PUBLIC_URL or SECRET, saying which, and
//     on a bind mount it does not own, saying in one line what to do; it
//     answers /api/ready and its HEALTHCHECK; the process runs as 10001; the owner is created in
//     Chromium through the setup address its log prints; the shell e2e spec passes against it; it
//     stops gracefully on SIGTERM; a new container on the volume still has the owner;
//  4. on the machine's PostgreSQL and Redis: a candidate applies with a CV in Chromium and the owner
//     reads it (tests/container/image.spec.ts), then again from a new container on the same volume
//     and database;
//  5. compose.yaml: podman-compose reads it (with the required settings, and refuses it without
//     SECRET).
//
// Containers run with `--network host` and podman's runc runtime, with a containers.conf of our
// own (no default ulimits), as on this project's CI machines (Debian 12, cgroups v1). Everything it
// starts is removed at the end, pass or fail.
//   TEST_DATABASE_URL, TEST_REDIS_URL   the PostgreSQL and Redis to use (defaults: this machine's)
//   KEEP_IMAGE=1                        keep localhost/manna:test afterwards
//   TEST_CONTAINER_ONLY=compose         only the compose.yaml check (no image is built)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, aptInstall, c, chromePath, CHROMIUM_FLAGS, freePort, log, which } from './lib/common.mjs';

const IMAGE = 'localhost/manna:test';
const BASE = 'localhost/manna-base:24-bookworm';
const BUILD_BASE = 'localhost/manna-base:24-bookworm-build';
const SIZE_LIMIT_MB = 250;
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECRET = 'container-test-secret-0123456789abcdef0123456789abcdef';
const E2E_OWNER = { email: 'owner@e2e.example', password: 'e2e owner passphrase for tests' };
const PG_OWNER = { email: 'owner@container.example', password: 'container owner passphrase 2026' };
const TEST_DB = 'manna_container_test';

const say = (message) => log('test:container', message);
const started = Date.now();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-container-'));
const containersConf = path.join(work, 'containers.conf');
// the kernel here refuses podman's default ulimits (nproc)
fs.writeFileSync(containersConf, '[containers]\ndefault_ulimits = []\n');
const env = { ...process.env, CONTAINERS_CONF: containersConf };
const made = { containers: new Set(), volumes: new Set(), database: false };

class Failure extends Error {}
function fail(message) {
  throw new Failure(message);
}

/** Runs a command; answers its output. `check` (default) fails the test when it exits non-zero. */
function sh(cmd, args, { check = true, timeoutMs = 15 * 60_000 } = {}) {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: timeoutMs,
  });
  // podman's note that it cannot start health-check timers without systemd (they are run by hand here)
  const stderr = (r.stderr ?? '')
    .split('\n')
    .filter((l) => !/unable to get systemd connection/.test(l))
    .join('\n');
  const out = { status: r.status, stdout: r.stdout ?? '', stderr, all: `${r.stdout ?? ''}${stderr}` };
  if (check && r.status !== 0) {
    const tail = out.all.trim().split('\n').slice(-40).join('\n');
    fail(`${[cmd, ...args].join(' ')} exited with ${r.status ?? r.signal}\n${tail}`);
  }
  return out;
}
const podman = (args, options) => sh('podman', ['--runtime', 'runc', ...args], options);

/** Runs a command with its output on the console; fails the test when it exits non-zero. */
function shown(cmd, args, extraEnv = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: 'inherit' });
  if (r.status !== 0) fail(`${[cmd, ...args].join(' ')} exited with ${r.status ?? r.signal}`);
}

function step(title, fn) {
  const t = Date.now();
  say(c.bold(title));
  const result = fn();
  const done = (value) => {
    say(`${c.green('ok')} ${title} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
    return value;
  };
  return result instanceof Promise ? result.then(done) : done(result);
}

// ---------------------------------------------------------------------------------------------
// 1. Tools and base images
// ---------------------------------------------------------------------------------------------

function ensureTools() {
  const tools = {
    podman: 'podman',
    runc: 'runc',
    debootstrap: 'debootstrap',
    'podman-compose': 'podman-compose',
  };
  const missing = Object.keys(tools).filter((t) => !which(t) && !fs.existsSync(`/usr/sbin/${t}`));
  if (missing.length > 0) {
    say(`installing ${missing.join(', ')} from Debian's packages`);
    const { ok, output } = aptInstall(missing.map((t) => tools[t]));
    const still = Object.keys(tools).filter((t) => !which(t) && !fs.existsSync(`/usr/sbin/${t}`));
    if (!ok || still.length > 0)
      fail(
        `containers cannot be built here: ${still.join(', ') || missing.join(', ')} missing and could not be installed` +
          ` (apt-get install -y podman runc debootstrap podman-compose)\n${output}`,
      );
  }
  if (!fs.existsSync(chromePath())) {
    const { ok, output } = aptInstall(['chromium']);
    if (!ok) fail(`Chromium is missing at ${chromePath()} and could not be installed\n${output}`);
  }
  say(podman(['--version']).stdout.trim());
}

function ensureBase() {
  shown('bash', ['scripts/container-base.sh']);
  // a container must run at all before anything else is worth trying
  const r = podman(['run', '--rm', '--network', 'host', BASE, 'node', '--version'], { check: false });
  if (r.status !== 0) fail(`containers cannot run on this machine (podman run ${BASE}):\n${r.all.trim()}`);
  say(`a container runs here: node ${r.stdout.trim()} in ${BASE}`);
}

// ---------------------------------------------------------------------------------------------
// 2. The image
// ---------------------------------------------------------------------------------------------

/** The certificate authorities this machine trusts (its npm registry may be behind a re-signing proxy). */
function caBundle() {
  for (const file of [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt'])
    if (file && fs.existsSync(file)) return file;
  return null;
}

function buildImage() {
  const ca = caBundle();
  const args = ['build', '--network', 'host', '--format', 'docker', '--build-arg', `BASE=${BASE}`];
  args.push('--build-arg', `BUILD_BASE=${BUILD_BASE}`, '-t', IMAGE);
  if (ca) args.push('--secret', `id=ca,src=${ca}`);
  const r = podman([...args, '.']); // a failed build fails the test with its last 40 lines
  // what the build stage said about the site and the compiled server
  for (const line of r.all.split('\n'))
    if (/^(pwa:|build: done|container-server:)/.test(line)) say(`  ${line}`);
}

function inspectImage() {
  const [info] = JSON.parse(podman(['image', 'inspect', IMAGE]).stdout);
  const sizeMb = info.Size / 1e6;
  say(`image ${IMAGE}: ${sizeMb.toFixed(0)} MB (at most ${SIZE_LIMIT_MB} MB)`);
  if (sizeMb > SIZE_LIMIT_MB) fail(`the image is ${sizeMb.toFixed(0)} MB, over ${SIZE_LIMIT_MB} MB`);
  const config = info.Config ?? {};
  if (!/^[1-9]\d*(:\d+)?$/.test(config.User ?? ''))
    fail(`the image runs as "${config.User}", not a numeric non-root user`);
  if (!Object.keys(config.ExposedPorts ?? {}).includes('8080/tcp')) fail('the image does not expose 8080');
  if (!Object.keys(config.Volumes ?? {}).includes('/data')) fail('the image has no /data volume');
  const health = info.Healthcheck ?? config.Healthcheck;
  if (!health?.Test?.join(' ').includes('/api/ready')) fail('the image has no HEALTHCHECK on /api/ready');
  const secretEnv = (config.Env ?? []).filter((e) => /^[^=]*(SECRET|PASSWORD|TOKEN|_KEY)[^=]*=/.test(e));
  if (secretEnv.length > 0) fail(`the image's environment holds secrets: ${secretEnv.join(', ')}`);
  say(
    `runs as ${config.User}, exposes 8080, /data is a volume, HEALTHCHECK ${health.Test.at(-1).slice(0, 60)}…`,
  );

  // what is inside /app
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const probe = `
    const fs = require('node:fs'), path = require('node:path');
    const dev = JSON.parse(process.env.DEV_DEPS);
    const found = { tests: [], git: [], secrets: [], dev: [], files: 0, data: fs.readdirSync('/data') };
    for (const e of fs.readdirSync('/app', { withFileTypes: true, recursive: true })) {
      const file = path.join(e.parentPath, e.name);
      if (e.name === '.git') found.git.push(file);
      if (!e.isFile()) continue;
      found.files++;
      if (/\\.(test|spec)\\.[cm]?[jt]sx?$/.test(e.name) || /^\\/app\\/tests\\//.test(file)) found.tests.push(file);
      if (/^\\.env(\\..*)?$|\\.(pem|key|p12|sqlite|db)$|^secret$|^id_(rsa|ed25519)/.test(e.name)) found.secrets.push(file);
      else if (e.name.endsWith('.js') || e.name.endsWith('.json')) {
        const text = fs.readFileSync(file, 'latin1');
        if (text.includes('PRIVATE KEY-----')) found.secrets.push(file);
      }
    }
    for (const name of dev) if (fs.existsSync(path.join('/app/node_modules', name))) found.dev.push(name);
    console.log(JSON.stringify(found));`;
  const r = podman([
    'run',
    '--rm',
    '--network',
    'none',
    '-e',
    `DEV_DEPS=${JSON.stringify(Object.keys(pkg.devDependencies))}`,
    IMAGE,
    'node',
    '-e',
    probe,
  ]);
  const found = JSON.parse(r.stdout.trim().split('\n').at(-1));
  const problems = [
    found.git.length && `.git: ${found.git.join(', ')}`,
    found.tests.length && `test files: ${found.tests.slice(0, 5).join(', ')}`,
    found.secrets.length && `secrets: ${found.secrets.join(', ')}`,
    found.dev.length && `dev dependencies: ${found.dev.join(', ')}`,
    found.data.length && `/data is not empty: ${found.data.join(', ')}`,
  ].filter(Boolean);
  if (problems.length > 0) fail(`the image holds what it must not:\n  ${problems.join('\n  ')}`);
  say(
    `${found.files} files in /app: no .git, no tests, no secrets, none of the ${Object.keys(pkg.devDependencies).length} dev dependencies; /data empty`,
  );
}

// ---------------------------------------------------------------------------------------------
// Running it
// ---------------------------------------------------------------------------------------------

/** Starts a container of the image on 127.0.0.1:<port> with a volume at /data; answers its name. */
function start(name, volume, port, settings) {
  podman(['rm', '-f', name], { check: false });
  const args = ['run', '-d', '--name', name, '--network', 'host', '-v', `${volume}:/data`];
  const all = {
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SECRET,
    RATE_LIMIT_PUBLIC_PER_MIN: '10000',
    RATE_LIMIT_PAGE_RENDERS_PER_MIN: '10000',
    ...settings,
  };
  for (const [key, value] of Object.entries(all)) args.push('-e', `${key}=${value}`);
  made.containers.add(name);
  made.volumes.add(volume);
  podman([...args, IMAGE]);
  return name;
}

async function waitReady(name, port, timeoutMs = 90_000) {
  const t = Date.now();
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/ready`);
      if (res.ok) {
        const body = await res.json();
        say(`${name} ready in ${((Date.now() - t) / 1000).toFixed(1)} s: ${JSON.stringify(body)}`);
        return body;
      }
    } catch {
      // not listening yet
    }
    const state = podman(['inspect', name, '--format', '{{.State.Status}}'], { check: false }).stdout.trim();
    if (state === 'exited' || Date.now() - t > timeoutMs)
      fail(
        `${name} is not ready (${state}) after ${((Date.now() - t) / 1000).toFixed(0)} s:\n${logsOf(name).split('\n').slice(-30).join('\n')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

const logsOf = (name) => podman(['logs', name], { check: false }).all;

/** SIGTERM: the container must finish and exit 0, saying it drained. */
function stopGracefully(name) {
  podman(['stop', '-t', '20', name]);
  const code = podman(['inspect', name, '--format', '{{.State.ExitCode}}']).stdout.trim();
  if (code !== '0')
    fail(`${name} exited with ${code} on SIGTERM:\n${logsOf(name).split('\n').slice(-20).join('\n')}`);
  if (!/Shutting down: finishing in-flight requests/.test(logsOf(name)))
    fail(`${name} did not log its drain on SIGTERM`);
  podman(['rm', name]);
  made.containers.delete(name);
  say(`${name} stopped on SIGTERM after draining, exit code 0`);
}

function refusesWithout() {
  const run = (settings) => {
    const args = ['run', '--rm', '--network', 'none'];
    for (const [k, v] of Object.entries(settings)) args.push('-e', `${k}=${v}`);
    return podman([...args, IMAGE], { check: false, timeoutMs: 60_000 });
  };
  const noUrl = run({});
  if (noUrl.status === 0 || !/PUBLIC_URL/.test(noUrl.all))
    fail(`without PUBLIC_URL the image should refuse to start naming it:\n${noUrl.all}`);
  const noSecret = run({ PUBLIC_URL: 'https://www.example.com' });
  if (noSecret.status === 0 || !/SECRET/.test(noSecret.all))
    fail(`without SECRET the image should refuse to start naming it:\n${noSecret.all}`);
  say(`without PUBLIC_URL: "${noUrl.all.trim().split('\n').at(-1)}"`);
  say(`without SECRET: "${noSecret.all.trim().split('\n').at(-1)}"`);
  // a bind mount its user (10001) does not own: one line that says what to do, no stack trace
  const hostDir = fs.mkdtempSync(path.join(work, 'bind-'));
  const bind = podman(
    [
      'run', '--rm', '--network', 'none',
      '-e', 'PUBLIC_URL=https://www.example.com', '-e', `SECRET=${SECRET}`,
      '-v', `${hostDir}:/data`, IMAGE,
    ],
    { check: false, timeoutMs: 60_000 },
  );
  if (bind.status === 0 || !/chown -R 10001/.test(bind.all) || /syscall|\n\s+at /.test(bind.all))
    fail(`on a bind mount it does not own the image should say in one line what to do:\n${bind.all}`);
  say(`on a bind mount of another account: "${bind.all.trim().split('\n').at(-1)}"`);
}

async function createOwnerThroughSetup(name) {
  const match = /(http:\/\/\S+\/admin\/setup\?token=[\w-]+)/.exec(logsOf(name));
  if (!match) fail(`${name} printed no setup address:\n${logsOf(name)}`);
  if (!/node server\/scripts\/create-admin\.js/.test(logsOf(name)))
    fail('the setup hint should name the command inside the container');
  say(`setup address from the log: ${match[1].replace(/token=.*/, 'token=…')}`);
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: chromePath(), args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(match[1]);
    const form = page.locator('form');
    await form.getByLabel('Email').fill(E2E_OWNER.email);
    await form.getByLabel('Password', { exact: true }).fill(E2E_OWNER.password);
    await form.getByLabel('Repeat the password').fill(E2E_OWNER.password);
    await form.getByRole('button', { name: 'Create the account and sign in' }).click();
    await page.getByRole('complementary', { name: 'Admin Panel' }).waitFor({ timeout: 30_000 });
    if (errors.length > 0) fail(`the setup page logged errors: ${errors.join('; ')}`);
    say(
      `the owner ${E2E_OWNER.email} was created through /admin/setup and is signed in (${new URL(page.url()).pathname})`,
    );
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------
// 3. SQLite with a volume
// ---------------------------------------------------------------------------------------------

async function onSqlite() {
  const port = await freePort();
  const volume = 'manna-test-sqlite';
  podman(['volume', 'rm', '-f', volume], { check: false });
  const name = start('manna-test-sqlite', volume, port, { SEED_DEMO: 'true' });
  await waitReady(name, port);
  podman(['healthcheck', 'run', name]);
  say(`${name}: its HEALTHCHECK answers healthy`);
  const uid = /^Uid:\s+(\d+)/m.exec(podman(['exec', name, 'cat', '/proc/1/status']).stdout)?.[1];
  if (!uid || uid === '0') fail(`the server runs as uid ${uid}`);
  const data = podman(['exec', name, 'stat', '-c', '%a %u', '/data']).stdout.trim();
  if (data !== `700 ${uid}`) fail(`/data is "${data}", not 700 owned by the server's account`);
  say(`the server (pid 1) runs as uid ${uid}; /data is mode 700, its own`);
  await createOwnerThroughSetup(name);

  const dataDir = fs.mkdtempSync(path.join(work, 'e2e-'));
  shown('npx', ['playwright', 'test', 'tests/e2e/shell.spec.ts'], {
    E2E_BASE_URL: `http://127.0.0.1:${port}`,
    E2E_DATA_DIR: dataDir,
    E2E_WORKERS: '2',
  });
  stopGracefully(name);

  // a new container on the same volume: the database is there (no setup address: the owner exists)
  const again = start('manna-test-sqlite-again', volume, port, { SEED_DEMO: 'true' });
  await waitReady(again, port);
  if (/admin\/setup\?token=/.test(logsOf(again)))
    fail('a new container on the volume asked for setup again: the database did not survive');
  say(`a new container on ${volume} has the owner (no setup address printed)`);
  stopGracefully(again);
}

// ---------------------------------------------------------------------------------------------
// 4. PostgreSQL and Redis
// ---------------------------------------------------------------------------------------------

/** Runs statements on PG_URL's server (in `database` when given); answers the last one's rows. */
async function withPg(sql, database) {
  const { default: pg } = await import('pg');
  const url = new URL(PG_URL);
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    let rows = [];
    for (const statement of sql) rows = (await client.query(statement)).rows;
    return rows;
  } finally {
    await client.end();
  }
}

async function onPostgres() {
  await withPg([`drop database if exists ${TEST_DB}`, `create database ${TEST_DB}`]);
  made.database = true;
  const url = new URL(PG_URL);
  url.pathname = `/${TEST_DB}`;
  const settings = {
    DATABASE_URL: url.href,
    REDIS_URL,
    REDIS_KEY_PREFIX: `manna-container-test-${process.pid}:`,
    SEED_DEMO: 'true',
    ADMIN_EMAIL: PG_OWNER.email,
    ADMIN_PASSWORD: PG_OWNER.password,
  };
  const volume = 'manna-test-pg';
  podman(['volume', 'rm', '-f', volume], { check: false });
  const port = await freePort();
  const specEnv = (phase) => ({
    E2E_BASE_URL: `http://127.0.0.1:${port}`,
    E2E_DATA_DIR: fs.mkdtempSync(path.join(work, 'e2e-')),
    CONTAINER_PHASE: phase,
    CONTAINER_OWNER_EMAIL: PG_OWNER.email,
    CONTAINER_OWNER_PASSWORD: PG_OWNER.password,
    // the owner's authenticator app, set up in the first phase, signs them in again in the second
    CONTAINER_FACTOR_FILE: path.join(work, 'owner-factor.json'),
  });
  const spec = ['playwright', 'test', '--config', 'tests/container/playwright.config.ts'];

  const first = start('manna-test-pg', volume, port, settings);
  const ready = await waitReady(first, port);
  if (ready.database !== 'ok') fail(`/api/ready on PostgreSQL: ${JSON.stringify(ready)}`);
  shown('npx', spec, specEnv('first'));
  const [row] = await withPg(
    [`select count(*)::int as n from job_application where full_name = 'Container Candidate'`],
    TEST_DB,
  );
  if (row?.n !== 1) fail(`the application is not in PostgreSQL (${row?.n} rows)`);
  say(`the application is a row of ${TEST_DB} on PostgreSQL; its CV is on the volume ${volume}`);
  stopGracefully(first);

  const again = start('manna-test-pg-again', volume, port, settings);
  await waitReady(again, port);
  shown('npx', spec, specEnv('again'));
  stopGracefully(again);
}

// ---------------------------------------------------------------------------------------------
// 5. compose.yaml
// ---------------------------------------------------------------------------------------------

function composeAccepted() {
  // podman-compose 1.0 (Debian 12) has no `config`: --dry-run prints the podman commands `up`
  // would run, with every setting filled in. It still creates the volumes and network, so it runs
  // under a project name of its own, removed afterwards.
  const project = `manna-compose-check-${process.pid}`;
  const settings = {
    PUBLIC_URL: 'https://manna.example.com',
    SECRET,
    POSTGRES_PASSWORD: 'compose-check-password',
    REDIS_PASSWORD: 'compose-check-redis-password',
  };
  const dir = fs.mkdtempSync(path.join(work, 'compose-'));
  // a copy with its own .env; podman-compose wants the Dockerfile of `build: .` to exist
  for (const file of ['compose.yaml', 'Dockerfile'])
    fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
  fs.mkdirSync(path.join(dir, 'deploy'));
  fs.copyFileSync(path.join(ROOT, 'deploy', 'Caddyfile'), path.join(dir, 'deploy', 'Caddyfile'));
  fs.writeFileSync(path.join(dir, '.env'), 'SMTP_URL=smtp://mail.example.com:587\n');
  // the settings as the only ones of their names (not this machine's, if it has any)
  const compose = (only) =>
    spawnSync('podman-compose', ['--dry-run', '-p', project, '-f', path.join(dir, 'compose.yaml'), 'up'], {
      cwd: dir,
      env: { ...Object.fromEntries(Object.entries(env).filter(([k]) => !(k in settings))), ...only },
      encoding: 'utf8',
      timeout: 120_000,
    });
  const cleanUp = () => {
    for (const v of podman(['volume', 'ls', '-q', '--filter', `label=io.podman.compose.project=${project}`], {
      check: false,
    })
      .stdout.split('\n')
      .filter(Boolean))
      podman(['volume', 'rm', '-f', v], { check: false });
    podman(['network', 'rm', '-f', `${project}_default`], { check: false });
  };
  try {
    const ok = compose(settings);
    const out = `${ok.stdout}${ok.stderr}`;
    if (ok.status !== 0) fail(`podman-compose refused compose.yaml:\n${out.slice(-3000)}`);
    const creates = out.split('\n').filter((l) => /^podman (create|run)\b/.test(l));
    for (const service of ['caddy', 'app', 'db', 'redis'])
      if (!creates.some((l) => l.includes(`com.docker.compose.service=${service}`)))
        fail(`compose.yaml: no container for ${service}\n${out.slice(-3000)}`);
    const app = creates.find((l) => l.includes('com.docker.compose.service=app'));
    for (const expected of [
      `SECRET=${SECRET}`,
      'DATABASE_URL=postgres://manna:compose-check-password@db:5432/manna',
      'REDIS_URL=redis://:compose-check-redis-password@redis:6379',
      '-v ',
      ':/data',
    ])
      if (!app.includes(expected)) fail(`compose.yaml: the app is missing ${expected}:\n${app}`);
    const redis = creates.find((l) => l.includes('com.docker.compose.service=redis'));
    if (!redis.includes('--requirepass compose-check-redis-password'))
      fail(`compose.yaml: Redis should require its password:\n${redis}`);
    if (creates.some((l) => l.includes('${')))
      fail(`compose.yaml: a setting was left unfilled:\n${creates.join('\n')}`);
    say(
      `podman-compose reads compose.yaml: ${creates.length} containers (caddy, app, db, redis), every setting filled in`,
    );
    cleanUp();
    // unset (podman-compose 1.0 lets an empty value through; the app then refuses it, naming it)
    const { SECRET: _left, ...withoutSecret } = settings;
    const refused = compose(withoutSecret);
    if (refused.status === 0 || !/SECRET/.test(`${refused.stdout}${refused.stderr}`))
      fail(`compose.yaml without SECRET should be refused naming it:\n${refused.stdout}${refused.stderr}`);
    say(
      `without SECRET podman-compose refuses: "${`${refused.stdout}${refused.stderr}`
        .trim()
        .split('\n')
        .filter((l) => /SECRET/.test(l))
        .at(-1)
        ?.trim()}"`,
    );
  } finally {
    cleanUp();
  }
}

// ---------------------------------------------------------------------------------------------

async function cleanUpAll() {
  for (const name of made.containers) podman(['rm', '-f', name], { check: false });
  for (const volume of made.volumes) podman(['volume', 'rm', '-f', volume], { check: false });
  if (made.database) await withPg([`drop database if exists ${TEST_DB}`]).catch(() => {});
  if (!process.env.KEEP_IMAGE) podman(['rmi', '-f', IMAGE], { check: false });
  podman(['image', 'prune', '-f'], { check: false });
  fs.rmSync(work, { recursive: true, force: true });
}

let failed = false;
try {
  step('tools', ensureTools);
  if (process.env.TEST_CONTAINER_ONLY === 'compose') {
    say('TEST_CONTAINER_ONLY=compose: no image is built');
  } else {
    step('base images (Debian 12 + Node 24)', ensureBase);
    step('build the image', buildImage);
    step('what the image holds', inspectImage);
    step('refuses to start without PUBLIC_URL or SECRET, or on a folder it does not own', refusesWithout);
    await step('on SQLite with a volume', onSqlite);
    await step('on PostgreSQL and Redis, and again from a new container', onPostgres);
  }
  step('compose.yaml', composeAccepted);
} catch (err) {
  failed = true;
  console.error(c.red(`[test:container] ${err instanceof Failure ? err.message : (err?.stack ?? err)}`));
} finally {
  await cleanUpAll();
}
say(`${failed ? c.red('failed') : c.green('passed')} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failed ? 1 : 0);
