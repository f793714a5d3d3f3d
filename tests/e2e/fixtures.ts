// Shared Playwright fixtures for the e2e suite. Import `test` and `expect` from here, not from
// '@playwright/test':
//
//   import { test, expect, expectNoAxeViolations } from './fixtures';
//
// - Every test fails if any page of its browser context logged a console.error or threw an
//   uncaught error (console.warn and the rest are allowed). Chromium's own "Failed to load
//   resource" line for the document's HTTP status (the 404 page) is not counted; check
//   `response.status()` instead. A test that expects an error says so:
//     test.use({ allowedConsoleErrors: [/Error fetching pricing/] });
// - A Content Security Policy violation on any page counts as a console error.
// - expectNoAxeViolations(page) runs axe (WCAG 2.0/2.1 A and AA plus best practices) and fails with
//   a readable list of what it found.
import { test as base, expect, type Page, type TestInfo } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';

export { expect };

type Pattern = string | RegExp;

export interface ConsoleProblem {
  kind: 'console.error' | 'pageerror';
  text: string;
  url: string;
  location?: string;
}

interface Fixtures {
  /** Console errors / uncaught errors matching one of these are not counted. Strings match as substrings. */
  allowedConsoleErrors: Pattern[];
  /** What the pages of this test logged so far (console.error and uncaught errors). */
  consoleProblems: ConsoleProblem[];
  /** Automatic: fails the test when consoleProblems is not empty at its end. */
  failOnConsoleErrors: void;
}

function matches(text: string, patterns: Pattern[]): boolean {
  return patterns.some((p) => (typeof p === 'string' ? text.includes(p) : p.test(text)));
}

function formatProblems(problems: ConsoleProblem[]): string {
  return problems
    .map((p, i) => {
      const where = p.location ? `\n     at ${p.location}` : '';
      return `  ${i + 1}. [${p.kind}] ${p.text}\n     page: ${p.url}${where}`;
    })
    .join('\n');
}

export const test = base.extend<Fixtures>({
  allowedConsoleErrors: [[], { option: true }],

  // A public page starts the app only after its first paint (the boot script of
  // common/page-html.mjs), so `page.goto` of a public page also waits until React owns it: a test
  // then acts on the app, as a visitor does a moment later. Other navigations (links, reload) and
  // pages of contexts a test makes itself are not changed, nor is a page with JavaScript off
  // (`test.use({ javaScriptEnabled: false })`), where nothing hydrates.
  page: async ({ page, javaScriptEnabled }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (
        javaScriptEnabled !== false &&
        options?.waitUntil !== 'commit' &&
        (await page.locator('script[data-entry]').count()) > 0
      ) {
        await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true', { timeout: 15_000 });
      }
      return response;
    };
    await use(page);
  },

  consoleProblems: async ({ context, allowedConsoleErrors }, use) => {
    const problems: ConsoleProblem[] = [];
    // Every Content Security Policy violation of any page is a console error (so a test fails on
    // it), also the ones the browser only reports as an event.
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        console.error(
          `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline code'} (${e.sourceFile}:${e.lineNumber})`,
        );
      });
    });
    context.on('console', (msg) => {
      const text = msg.text();
      // Chromium's own warning of markup it could not use (an expected element never found) is ours
      // to fix, though it is a warning
      const ourMarkup =
        msg.type() === 'warning' && /Did not find element expected .*<link rel=expect/.test(text);
      if (msg.type() !== 'error' && !ourMarkup) return;
      if (matches(text, allowedConsoleErrors)) return;
      const loc = msg.location();
      // Chromium reports the HTTP status of the document itself (e.g. our 404 page, served with
      // status 404) as a console error. That is the navigation's status, which tests check on the
      // response; a sub-resource that fails (script, image, API call) still counts.
      if (text.startsWith('Failed to load resource:') && loc.url && loc.url === msg.page()?.url()) return;
      problems.push({
        kind: 'console.error',
        text,
        url: msg.page()?.url() ?? '',
        location: loc.url ? `${loc.url}:${loc.lineNumber + 1}:${loc.columnNumber + 1}` : undefined,
      });
    });
    context.on('weberror', (webError) => {
      const error = webError.error();
      const text = `${error.name}: ${error.message}`;
      if (matches(text, allowedConsoleErrors)) return;
      problems.push({
        kind: 'pageerror',
        text: error.stack ? `${text}\n${indent(stackWithoutMessage(error.stack), 5)}` : text,
        url: webError.page()?.url() ?? '',
      });
    });
    await use(problems);
  },

  failOnConsoleErrors: [
    async ({ consoleProblems }, use, testInfo) => {
      await use();
      const verdict = consoleVerdict(consoleProblems);
      if (verdict === null) return;
      await testInfo.attach('console-errors.txt', {
        body: formatProblems(consoleProblems),
        contentType: 'text/plain',
      });
      throw new Error(verdict);
    },
    { auto: true },
  ],
});

/** Why the pages' console fails a test (what failOnConsoleErrors throws), or null when it does not. */
export function consoleVerdict(problems: ConsoleProblem[]): string | null {
  if (problems.length === 0) return null;
  return (
    `The page logged ${problems.length} console error(s) / uncaught error(s):\n` +
    formatProblems(problems) +
    `\n(If a test expects one, allow it with test.use({ allowedConsoleErrors: [/.../] }).)`
  );
}

function stackWithoutMessage(stack: string): string {
  return stack
    .split('\n')
    .filter((line) => line.trim().startsWith('at '))
    .slice(0, 6)
    .join('\n');
}

function indent(text: string, n: number): string {
  const pad = ' '.repeat(n);
  return text
    .split('\n')
    .map((l) => pad + l.trim())
    .join('\n');
}

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export interface AxeOptions {
  /** CSS selectors to check only inside (default: the whole page). */
  include?: string[];
  /** CSS selectors to leave out, e.g. a third-party widget. Say why in the test. */
  exclude?: string[];
  /** Rule ids to switch off. Say why in the test. */
  disableRules?: string[];
  /** Used in the message and the attachment name; defaults to the page's path. */
  label?: string;
}

/**
 * Runs axe-core on the current state of the page and fails the test with a readable report when it
 * finds any violation. The full axe result is attached to the test as JSON.
 */
export async function expectNoAxeViolations(page: Page, options: AxeOptions = {}): Promise<void> {
  // what a person reads is the page at rest: a toast fading in is half transparent for a moment,
  // which axe would measure as low contrast (seen on a busy CI machine). Finite animations are
  // let finish (at most 2 s); endless ones (a spinner, a pulse) are not waited for.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  // only the violations are reported in full: the passes' and inapplicable rules' details cost
  // a third of the run and were never read
  let builder = new AxeBuilder({ page }).withTags(AXE_TAGS).options({ resultTypes: ['violations'] });
  for (const sel of options.include ?? []) builder = builder.include(sel);
  for (const sel of options.exclude ?? []) builder = builder.exclude(sel);
  if (options.disableRules?.length) builder = builder.disableRules(options.disableRules);
  const results = await builder.analyze();
  const label = options.label ?? new URL(page.url()).pathname;

  const testInfo: TestInfo | undefined = safeTestInfo();
  if (testInfo) {
    await testInfo.attach(`axe ${label}.json`, {
      body: JSON.stringify(results.violations, null, 2),
      contentType: 'application/json',
    });
  }

  const report = results.violations
    .map((v) => {
      const nodes = v.nodes
        .slice(0, 10)
        .map((n) => {
          const summary = (n.failureSummary ?? '').split('\n').map((l) => `          ${l.trim()}`);
          return [`      - ${n.target.join(' ')}`, `        ${n.html.slice(0, 200)}`, ...summary].join('\n');
        })
        .join('\n');
      const more = v.nodes.length > 10 ? `\n      … and ${v.nodes.length - 10} more` : '';
      return `  [${v.impact ?? 'n/a'}] ${v.id}: ${v.help}\n    ${v.helpUrl}\n${nodes}${more}`;
    })
    .join('\n\n');

  expect(
    results.violations.length,
    `axe found ${results.violations.length} violation(s) on ${label}:\n\n${report}\n`,
  ).toBe(0);
}

function safeTestInfo(): TestInfo | undefined {
  try {
    return base.info();
  } catch {
    return undefined;
  }
}
