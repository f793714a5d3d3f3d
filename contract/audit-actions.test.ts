import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../src/i18n/locales/en/admin.json';
import { AUDIT_ACTIONS } from './auth';

/** Every `action: '…'` the server's code writes to the audit log (tests excluded). */
function actionsWritten(dir: string): Set<string> {
  const found = new Set<string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || /\.test\.ts$|testing\.ts$/.test(entry.name))
      continue;
    const text = fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const m of text.matchAll(/\baction:\s*(?:[\w.]+\s*\?\s*)?'([a-z_]+)'(?:\s*:\s*'([a-z_]+)')?/g)) {
      found.add(m[1]);
      if (m[2]) found.add(m[2]);
    }
  }
  return found;
}

describe('the Activity filter', () => {
  it('offers every action the server records, each with its label', () => {
    const written = actionsWritten(path.resolve(__dirname, '../server'));
    // sign-in and sign-out are recorded through recordSession(…, 'login' | 'logout')
    written.add('logout');
    expect(written.size).toBeGreaterThan(10);
    expect([...written].filter((a) => !(AUDIT_ACTIONS as readonly string[]).includes(a))).toEqual([]);
    const labels = en.activity.actions as Record<string, string>;
    expect(AUDIT_ACTIONS.filter((a) => !labels[a])).toEqual([]);
  });
});
