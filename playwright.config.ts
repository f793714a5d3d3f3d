import { defineConfig, devices } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The e2e suite runs against the *built* app served by the real server (no Vite dev server):
// build first (`npm run build`, or `MANNA_DIST=<dir> npm run build`), then `npx playwright test`.
// `npm test` does both, into a temporary dist folder, on a free port.

const port = Number(process.env.E2E_PORT ?? 4173);
// E2E_BASE_URL: run against servers started elsewhere (scripts/test-scale.mjs: two processes behind
// a proxy); no web server is started then.
const externalBase = process.env.E2E_BASE_URL;
const baseURL = externalBase ?? `http://127.0.0.1:${port}`;
const dist = path.resolve(process.env.MANNA_DIST ?? 'dist');

// One fresh database and upload folder per run. The config is evaluated again in every worker
// process; the environment variable makes them all agree (workers inherit the runner's env). The
// process that created the folder removes it on exit, after the web server has been stopped.
// Set E2E_DATA_DIR yourself to keep the data of a run.
if (!process.env.E2E_DATA_DIR) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-e2e-data-'));
  process.env.E2E_DATA_DIR = dataDir;
  process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
}

// Chromium from Debian (never `playwright install`); the background-networking flags keep it quiet
// on a closed network.
export const chromiumExecutable = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const workers = Number(process.env.E2E_WORKERS) || (os.availableParallelism() >= 2 ? 2 : 1);
const jsonReport = process.env.E2E_JSON_REPORT;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers,
  // a hung test, not a slow one: the longest journeys take 25 s on a busy 2-core machine (the scale
  // check runs two servers and a proxy beside the browsers); tests that need more set their own
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: [
    ['list'],
    ...(jsonReport ? [['json', { outputFile: jsonReport }] as const] : []),
    // each test's start and end as it happens: what a stopped run got to (scripts/test.mjs)
    ...(process.env.E2E_PROGRESS_FILE ? [['./tests/e2e/progress-reporter.ts'] as const] : []),
  ],
  use: {
    baseURL,
    headless: true,
    locale: 'en-US',
    timezoneId: 'UTC',
    // No service worker but in pwa.spec.ts (which allows it): a worker would also start the offline
    // prefetch (src/pwa/prefetch.ts), background requests the other specs do not expect.
    serviceWorkers: 'block',
    // an action that cannot happen (a button that stays disabled, an element that never comes)
    // fails naming its step and what it waited for, instead of hanging until the test's timeout
    actionTimeout: 20_000,
    navigationTimeout: 30_000,
    trace: process.env.E2E_TRACE ? 'on' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumExecutable,
      args: chromiumArgs,
    },
  },
  projects: [
    // the owner signs in once per run; the specs reuse the session (tests/e2e/auth.setup.ts)
    {
      name: 'setup',
      testMatch: /auth\.setup\.ts$/,
      use: { launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs } },
    },
    {
      name: 'chromium',
      dependencies: ['setup'],
      use: {
        ...devices['Desktop Chrome'],
        // devices[] sets a channel/user agent for the bundled browser; keep the system one.
        channel: undefined,
        launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs },
      },
    },
  ],
  webServer: externalBase
    ? undefined
    : {
        // Same as `npx tsx server/index.ts`, in one process: SIGTERM reaches the server once, so it
        // shuts down gracefully (the tsx CLI would relay a second signal, which means "exit now").
        command: 'node --import tsx server/index.ts',
        url: `${baseURL}/api/health`,
        reuseExistingServer: false,
        timeout: 90_000,
        stdout: process.env.E2E_SERVER_LOG ? 'pipe' : 'ignore',
        stderr: 'pipe',
        gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: process.env.E2E_DATA_DIR,
          DIST_DIR: dist,
          SEED_DEMO: 'true',
          NODE_ENV: 'production',
          PUBLIC_URL: baseURL,
          // production requires a fixed secret; this one is for the throw-away e2e database only
          SECRET: process.env.E2E_SECRET ?? 'e2e-only-secret-0123456789abcdef0123456789abcdef',
          // Tests raise the limits; one server test checks them at their defaults.
          RATE_LIMIT_PUBLIC_PER_MIN: '10000',
          RATE_LIMIT_PAGE_RENDERS_PER_MIN: '10000',
          // Every test signs in from 127.0.0.1: at the default (5 failures per address in 15
          // minutes) one test's deliberate wrong password would refuse another's right one, in
          // whatever order they run. The limits are tested in routes/auth-security.test.ts and
          // routes/second-factors.test.ts.
          RATE_LIMIT_LOGIN_FAILURES: '1000',
          // The first owner account of the throw-away database (tests/e2e/admin-*.spec.ts sign in with it).
          ADMIN_EMAIL: 'owner@e2e.example',
          ADMIN_PASSWORD: 'e2e owner passphrase for tests',
        },
      },
});
