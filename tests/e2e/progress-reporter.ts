import fs from 'node:fs';
import path from 'node:path';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Writes one JSON line per test as it starts and as it ends to E2E_PROGRESS_FILE, as it happens.
 * Playwright's JSON report is written only at the end: a run stopped by `npm test`'s step timeout
 * leaves none, and this file is what says how far it got (what passed, what failed, which tests
 * were running when it was stopped). scripts/test.mjs reads it then.
 */
export default class ProgressReporter implements Reporter {
  private readonly file = process.env.E2E_PROGRESS_FILE;

  constructor() {
    if (this.file) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(this.file, '');
    }
  }

  private write(line: object) {
    // appended synchronously: a line is on disk before the next test can begin
    if (this.file) fs.appendFileSync(this.file, `${JSON.stringify(line)}\n`);
  }

  private static title(test: TestCase) {
    const [, , file, ...titles] = test.titlePath();
    return `${file} › ${titles.join(' › ')}`;
  }

  onTestBegin(test: TestCase) {
    this.write({ event: 'begin', id: test.id, title: ProgressReporter.title(test) });
  }

  onTestEnd(test: TestCase, result: TestResult) {
    this.write({
      event: 'end',
      id: test.id,
      title: ProgressReporter.title(test),
      // expected, unexpected, flaky or skipped: Playwright's own verdict, retries counted
      outcome: test.outcome(),
      final: result.retry >= test.retries || result.status === test.expectedStatus,
      ms: result.duration,
    });
  }

  onEnd(result: FullResult) {
    this.write({ event: 'done', status: result.status });
  }

  printsToStdio() {
    return false;
  }
}
