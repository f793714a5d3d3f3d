import { config } from '../config';
import type { VisitSource } from '../../contract/insights';

/**
 * The visit figures' side in the browser (docs/decisions/028-visit-figures.md): where this visit
 * came from, kept for the tab's session only (sessionStorage, gone when the tab closes), sent with
 * each page view and with an application or a contact message. No cookie, no localStorage, no
 * identifier: the server counts the visitor with a hash it cannot make again the next day. A
 * browser that says Do Not Track or Global Privacy Control sends nothing, not even the source.
 */

let visit: VisitSource | undefined;

const quiet = () =>
  navigator.doNotTrack === '1' ||
  (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;

/** The visit's source: kept in the tab's session, else taken from this page (its first). */
function currentVisit(): VisitSource {
  try {
    visit ??= JSON.parse(sessionStorage.getItem('manna-visit') ?? 'null') ?? undefined;
    if (!visit) {
      const q = new URLSearchParams(location.search);
      const from = document.referrer ? new URL(document.referrer).host : location.host;
      // only what the visit has: no empty fields in a form's request
      visit = Object.fromEntries(
        Object.entries({
          landing_page: location.pathname,
          referrer_host: from === location.host ? '' : from,
          utm_source: q.get('utm_source'),
          utm_medium: q.get('utm_medium'),
          utm_campaign: q.get('utm_campaign'),
        }).filter(([, value]) => value),
      );
      sessionStorage.setItem('manna-visit', JSON.stringify(visit));
    }
  } catch {
    // storage off or full: the visit is kept in memory for this page
  }
  return visit ?? {};
}

/** Where this visit came from, for a form's request ({} under Do Not Track). */
export const visitSource = (): VisitSource => (quiet() ? {} : currentVisit());

/** Counts a view of `path` read in `lang`, by a beacon the browser sends on its own time. */
export function countView(path: string, lang: string): void {
  if (!quiet() && navigator.sendBeacon)
    navigator.sendBeacon(
      `${config.websiteApi}/views`,
      new Blob([JSON.stringify({ ...currentVisit(), path, lang })], { type: 'application/json' }),
    );
}
