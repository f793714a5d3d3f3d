#!/usr/bin/env node
// `npm run test:faults`: the fault checks of bench/faults/ at a size that fits CI (.ci/run
// calls it): crash with SIGKILL, graceful stop under load, disk full, database
// unavailable, backup and restore while applications arrive, mail with its server down and its
// sender killed. Each starts the real server as a child process. Last line: `N passed, N failed`.
// Full size: node bench/faults/<name>.mjs (bench/README.md).
import { crashCheck } from '../bench/faults/crash.mjs';
import { gracefulStopCheck } from '../bench/faults/graceful-stop.mjs';
import { diskFullCheck } from '../bench/faults/disk-full.mjs';
import { dbDownCheck } from '../bench/faults/db-down.mjs';
import { backupRestoreCheck } from '../bench/faults/backup-restore.mjs';
import { mailCheck } from '../bench/faults/mail.mjs';

const started = Date.now();
const checks = [
  () => crashCheck({ applications: 150, kills: 4, concurrency: 8 }),
  () => gracefulStopCheck({ concurrency: 12, kb: 256 }),
  () => diskFullCheck(),
  () => dbDownCheck(),
  () => backupRestoreCheck({ applications: 600, during: 0.25 }),
  () => mailCheck({ messages: 30 }),
];
let passed = 0;
let failed = 0;
for (const run of checks) {
  try {
    const results = await run();
    // a check that reports nothing has checked nothing
    if (results.length === 0) {
      console.error('  FAIL a check reported no result');
      failed++;
    }
    for (const result of results) {
      if (result.ok) passed++;
      else failed++;
    }
  } catch (err) {
    console.error(`  FAIL the check itself failed: ${err.stack ?? err}`);
    failed++;
  }
}
console.log(`\nfault checks done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
