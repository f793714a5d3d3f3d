#!/usr/bin/env node
// Fails (exit 1) when a vitest JSON report holds fewer tests than the suite's floor in
// tests/floors.json; .ci/run uses it after the PostgreSQL run of the server suite.
//   node scripts/check-floor.mjs <vitest-report.json> "<suite name>"
import fs from 'node:fs';
import { floorOf, floorProblem, vitestCount } from './lib/floors.mjs';

const [file, suite] = process.argv.slice(2);
if (!file || !suite) {
  console.error('usage: node scripts/check-floor.mjs <vitest-report.json> "<suite name>"');
  process.exit(2);
}
let report = null;
try {
  report = JSON.parse(fs.readFileSync(file, 'utf8'));
} catch (err) {
  console.error(`${suite}: no report at ${file} (${err.message})`);
  process.exit(1);
}
const count = vitestCount(report);
const problem = floorProblem(suite, count);
if (problem) {
  console.error(`${suite}: ${problem}`);
  process.exit(1);
}
console.log(`${suite}: ${count} tests ran (floor ${Math.max(1, floorOf(suite))})`);
