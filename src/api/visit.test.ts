import { beforeEach, describe, expect, it, vi } from 'vitest';

/** The browser as the beacon sees it: an address, a referrer, the tab's storage, the beacon. */
function browser({ dnt = null as string | null, gpc = false, referrer = '' } = {}) {
  const stored = new Map<string, string>();
  const beacons: { url: string; body: Blob }[] = [];
  const location = {
    pathname: '/careers',
    search: '?utm_source=News&utm_campaign=Autumn',
    host: 'manna.example',
  };
  vi.stubGlobal('location', location);
  vi.stubGlobal('document', { referrer });
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
  });
  vi.stubGlobal('navigator', {
    doNotTrack: dnt,
    globalPrivacyControl: gpc,
    sendBeacon: (url: string, body: Blob) => beacons.push({ url, body }) > 0,
  });
  return { location, stored, beacons };
}

const load = () => import('./visit');

beforeEach(() => {
  vi.resetModules();
});

describe('the page-view beacon', () => {
  it('keeps the landing page, referrer and campaign of the visit for the tab, and sends them with every view', async () => {
    const tab = browser({ referrer: 'https://www.google.com/search?q=manna' });
    const { countView, visitSource } = await load();
    countView('/careers', 'fr');
    // a client-side navigation: the address changes, the visit's source does not
    tab.location.pathname = '/careers/7-copy-editor';
    tab.location.search = '';
    countView('/careers/7-copy-editor', 'fr');
    expect(tab.beacons.map((b) => b.url)).toEqual(['/api/views', '/api/views']);
    const second = JSON.parse(await tab.beacons[1].body.text());
    expect(second).toEqual({
      path: '/careers/7-copy-editor',
      lang: 'fr',
      landing_page: '/careers',
      referrer_host: 'www.google.com',
      utm_source: 'News',
      utm_campaign: 'Autumn',
    });
    expect(tab.beacons[1].body.type).toBe('application/json');
    expect(visitSource()).toEqual({
      landing_page: '/careers',
      referrer_host: 'www.google.com',
      utm_source: 'News',
      utm_campaign: 'Autumn',
    });
    // kept in the tab's session only: a reload of the module (a new page load) reads it back
    expect(JSON.parse(tab.stored.get('manna-visit')!)).toMatchObject({ landing_page: '/careers' });
    vi.resetModules();
    tab.location.pathname = '/pricing';
    expect((await load()).visitSource().landing_page).toBe('/careers');
  });

  it('says nothing of a referrer from the site itself', async () => {
    browser({ referrer: 'https://manna.example/blog' });
    const { visitSource } = await load();
    expect(visitSource().referrer_host).toBeUndefined();
  });

  it('sends nothing under Do Not Track or Global Privacy Control, not even with a form', async () => {
    for (const settings of [{ dnt: '1' }, { gpc: true }]) {
      vi.resetModules();
      const tab = browser(settings);
      const { countView, visitSource } = await load();
      countView('/careers', 'en');
      expect(tab.beacons).toEqual([]);
      expect(visitSource()).toEqual({});
      expect(tab.stored.size).toBe(0);
    }
  });
});
