import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import os from 'node:os';

// Unit, machine and server tests. Browser tests (Playwright) live in tests/e2e and have their own
// config. Tests that need IndexedDB import 'fake-indexeddb/auto' at the top of the test file.
// Components are rendered with react-dom/server or tested through their machines, so the default
// environment is node; a file can opt into another one with a `// @vitest-environment` comment.
const workers = Number(process.env.VITEST_MAX_WORKERS) || Math.min(2, Math.max(1, os.availableParallelism()));

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'node',
    include: ['src/**/*.test.{ts,tsx}', 'contract/**/*.test.ts', 'server/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'tests/e2e/**', 'dist/**', 'bench/**'],
    // forks isolate native modules (better-sqlite3, argon2) per file; at most 2 on this machine.
    pool: 'forks',
    maxWorkers: workers,
    testTimeout: 15_000,
    hookTimeout: 30_000,
    teardownTimeout: 10_000,
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
  },
});
