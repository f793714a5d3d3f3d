// The floors of tests/floors.json: the fewest tests a suite may report before its run fails.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'floors.json');

/** The floor of `suite`, or 0 when it has none. */
export function floorOf(suite) {
  const floors = JSON.parse(fs.readFileSync(FILE, 'utf8'));
  const floor = floors[suite];
  return typeof floor === 'number' ? floor : 0;
}

/** Why `count` tests are too few for `suite` (at least one, and at least its floor), or null. */
export function floorProblem(suite, count) {
  const floor = Math.max(1, floorOf(suite));
  return count < floor ? `${count} tests ran, fewer than the floor of ${floor} (tests/floors.json)` : null;
}

/** Tests counted in a vitest JSON report (jest format): every passed and failed test. */
export function vitestCount(report) {
  let n = 0;
  for (const file of report?.testResults ?? []) {
    n += (file.assertionResults ?? []).filter((t) => t.status === 'passed' || t.status === 'failed').length;
  }
  return n;
}
