import { defineConfig } from '@playwright/test';
import base, { chromiumArgs, chromiumExecutable } from '../../playwright.config';

// The checks scripts/test-container.mjs runs in Chromium against the image it started
// (E2E_BASE_URL): no web server of its own, no shared sign-in (each test signs in through the page).
export default defineConfig({
  ...base,
  testDir: '.',
  workers: 1,
  webServer: undefined,
  projects: [
    {
      name: 'container',
      use: { launchOptions: { executablePath: chromiumExecutable, args: chromiumArgs } },
    },
  ],
});
