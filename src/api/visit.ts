import { config } from '../config';
import type { ViewBeacon, VisitSource } from './contract/insights';

/**
 * The visit figures' side in the browser (docs/decisions/028-visit-figures.md): where this visit
 * came from, kept for the tab's session only (sessionStorage, gone when the tab closes), sent with
 * each page view and with an application or a contact message. No cookie, no localStorage, no
 * identifier: the server counts the visitor with a hash it cannot make again the next day. A
 * browser that says Do Not Track or Global Privacy Control sends nothing, not even the source.
 */

type Visit = Omit<ViewBeacon, 'path' | 'lang'>;
const KEY = 'manna-visit';
let visit: Visit | undefined;

const quiet = () =>
  navigator.doNotTrack === '1' ||
  (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;

function currentVisit(): Visit {
  if (visit) return visit;
  try {
    const kept = sessionStorage.getItem(KEY);
    if (kept) return (visit = JSON.parse(kept) as Visit);
  } catch {
    // storage off or unreadable: this page starts the visit
  }
  const q = new URLSearchParams(location.search);
  const tag = (name: string) => q.get(name)?.slice(0, 100) || undefined;
  let referrer: string | undefined;
  try {
    const from = new URL(document.referrer);
    if (from.host !== location.host) referrer = from.host;
  } catch {
    // no referrer
  }
  visit = {
    landing: location.pathname,
    referrer,
    utm_source: tag('utm_source'),
    utm_medium: tag('utm_medium'),
    utm_campaign: tag('utm_campaign'),
  };
  try {
    sessionStorage.setItem(KEY, JSON.stringify(visit));
  } catch {
    // kept in memory for this page only
  }
  return visit;
}

/** Where this visit came from, for a form's request ({} under Do Not Track). */
export function visitSource(): VisitSource {
  if (quiet()) return {};
  const v = currentVisit();
  const source: VisitSource = { landing_page: v.landing };
  if (v.referrer) source.referrer_host = v.referrer;
  if (v.utm_source) source.utm_source = v.utm_source;
  if (v.utm_medium) source.utm_medium = v.utm_medium;
  if (v.utm_campaign) source.utm_campaign = v.utm_campaign;
  return source;
}

/** Counts a view of `path` read in `lang`, by a beacon the browser sends on its own time. */
export function countView(path: string, lang: string): void {
  if (quiet() || typeof navigator.sendBeacon !== 'function') return;
  const body: ViewBeacon = { ...currentVisit(), path, lang: lang as ViewBeacon['lang'] };
  navigator.sendBeacon(
    `${config.websiteApi}/views`,
    new Blob([JSON.stringify(body)], { type: 'application/json' }),
  );
}
