import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `npm run create-admin`: the password never on the command line. Runs the script as a user would. */
describe('create-admin', { timeout: 60_000 }, () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-create-admin-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const run = (args: string[], env: Record<string, string> = {}, input = '') =>
    spawnSync(process.execPath, ['--import', 'tsx', 'server/scripts/create-admin.ts', ...args], {
      input,
      encoding: 'utf8',
      // a fresh SQLite database in DATA_DIR, whatever the test run's own settings are
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'silent',
        ...env,
      },
      timeout: 60_000,
    });

  it('refuses a password on the command line, and says why', () => {
    const res = run(['--email', 'cli@example.com', '--password', 'a long and unusual passphrase']);
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/shell history/);
  });

  it('reads the password from ADMIN_PASSWORD', () => {
    const res = run(['--email', 'env@example.com'], { ADMIN_PASSWORD: 'a long and unusual passphrase' });
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/Owner account env@example.com created/);
  });

  it('reads the password from standard input when it is not a terminal, and refuses a weak one', () => {
    const ok = run(['--email', 'piped@example.com'], {}, 'another long unusual passphrase\n');
    expect(ok.stdout).toMatch(/Owner account piped@example.com created/);
    const weak = run(['--email', 'weak@example.com'], {}, 'password123\n');
    expect(weak.status).toBe(1);
  });
});
