import type { Page } from '@playwright/test';

/** One layout shift Chromium reported, with what moved (so that a failure says where to look). */
export interface Shift {
  value: number;
  at: number;
  moved: { node: string | undefined; text: string | undefined; from: unknown; to: unknown }[];
}

/**
 * Records every layout shift of the page from its first paint (a PerformanceObserver of
 * 'layout-shift' entries, buffered, installed before any of the page's scripts); call before
 * `page.goto`, read with `layoutShifts`. Shifts right after a person's input are left out, as
 * CLS leaves them out.
 */
export async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: unknown[] };
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      })[])
        if (!entry.hadRecentInput)
          w.__shifts.push({
            value: entry.value,
            at: Math.round(entry.startTime),
            moved: (entry.sources ?? []).map((x) => ({
              node: x.node instanceof Element ? `${x.node.nodeName}.${x.node.className}` : x.node?.nodeName,
              // what it says, to find it on the page
              text: x.node?.textContent?.trim().slice(0, 60),
              from: x.previousRect.toJSON(),
              to: x.currentRect.toJSON(),
            })),
          });
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shifts recorded so far (`watchLayoutShifts`). */
export const layoutShifts = (page: Page): Promise<Shift[]> =>
  page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
