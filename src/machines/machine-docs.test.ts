import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { machineJson, machinesOf } from './machine-docs';

// docs/machines/ holds every machine's definition as JSON (open one in the Stately visualiser:
// README "Machines as diagrams"). `npm run machines` writes them; this test, part of `npm test`,
// fails when one is missing, stale or left over from a machine that is gone.

const DIR = path.resolve(__dirname, '../../docs/machines');
const machines = machinesOf(import.meta.glob('./*.machine.ts', { eager: true }));
const expected = new Map(machines.map(({ name, machine }) => [`${name}.json`, machineJson(machine)]));

if (process.env.UPDATE_MACHINE_DOCS) {
  fs.mkdirSync(DIR, { recursive: true });
  for (const file of fs.readdirSync(DIR))
    if (file.endsWith('.json') && !expected.has(file)) fs.rmSync(path.join(DIR, file));
  for (const [file, json] of expected) fs.writeFileSync(path.join(DIR, file), json);
}

describe('machine diagrams in docs/machines', () => {
  it('finds every machine module', () => {
    const modules = fs.readdirSync(__dirname).filter((f) => f.endsWith('.machine.ts'));
    expect(machines.length).toBeGreaterThanOrEqual(modules.length);
  });

  it('README counts the machines as they are', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
    expect(/\((\d+) files, one per machine/.exec(readme)?.[1]).toBe(String(expected.size));
  });

  it('has one current JSON file per machine and no other (run `npm run machines` after a change)', () => {
    const present = fs.existsSync(DIR)
      ? fs
          .readdirSync(DIR)
          .filter((f) => f.endsWith('.json'))
          .sort()
      : [];
    expect(present).toEqual([...expected.keys()].sort());
    for (const [file, json] of expected)
      expect(fs.readFileSync(path.join(DIR, file), 'utf8'), file).toBe(json);
  });

  it('keeps the states, events and named actions a reader needs', () => {
    const list = JSON.parse(expected.get('paged-list.json')!);
    expect(Object.keys(list.states)).toEqual(expect.arrayContaining(['loading', 'ready', 'failed']));
    expect(Object.keys(list.states.failed.states)).toEqual(['readingKept', 'settled']);
    expect(list.on['page.select'].actions).toEqual([
      expect.objectContaining({ type: 'setPage' }),
      expect.objectContaining({ type: 'showPage' }),
    ]);
  });

  it('draws the shared paged list once, not again for each screen that builds one', () => {
    const lists = [...expected.keys()].filter((file) => /^[a-z-]+\.\w*List\.json$/.test(file));
    expect(lists).toEqual([]);
    expect(expected.has('paged-list.json')).toBe(true);
  });
});
