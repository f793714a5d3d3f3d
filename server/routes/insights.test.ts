import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, conversionRate, type InsightsAnswer } from '../../contract/insights';
import { createPost, updatePost } from '../db/blog.repo';
import { signInAs } from '../lib/auth-testing';
import { createViewCounter, runInsightsRollup } from '../services/insights';
import { createTestApp } from '../testing';

/** Visit figures: the beacon, what it never keeps, the rollup, the Insights answer and its rights. */

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

let app: FastifyInstance;
let analyst: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp({ ANALYTICS_VIEWS_PER_MIN: '1000' });
  analyst = (await signInAs(app, { permissions: ['insights.read'] })).headers;
});
afterAll(() => app.close());

const today = () => new Date().toISOString().slice(0, 10);

function view(
  body: Record<string, unknown>,
  o: { ip?: string; ua?: string; headers?: Record<string, string> } = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/views',
    remoteAddress: o.ip ?? '203.0.113.7',
    headers: { 'content-type': 'application/json', 'user-agent': o.ua ?? CHROME, ...o.headers },
    payload: JSON.stringify(body),
  });
}

const read = async (query = '') => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/admin/insights?from=${today()}&to=${today()}${query}`,
    headers: analyst,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as InsightsAnswer;
};

/** The view table's row count, once the counter has written what waited (about a second). */
async function viewsStored(n: number) {
  await expect
    .poll(
      async () =>
        Number(
          (
            await app.db
              .selectFrom('analytics_view')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      { timeout: 5000 },
    )
    .toBe(n);
}

describe('counting page views', () => {
  it('counts a visit of three pages and a bounce, by page, referrer, campaign, device and language; nothing else', async () => {
    const campaign = {
      landing_page: '/careers?utm_source=newsletter',
      referrer_host: 'www.Google.com',
      utm_source: 'Newsletter',
      utm_medium: 'email',
      utm_campaign: 'Autumn-Hiring',
      lang: 'fr',
    };
    for (const path of ['/careers', '/careers/7-copy-editor', '/pricing?plan=2#top'])
      expect((await view({ ...campaign, path })).statusCode).toBe(204);
    expect(
      (
        await view(
          { path: '/blog/hello', referrer_host: 'news.example.org' },
          { ip: '198.51.100.4', ua: IPHONE },
        )
      ).statusCode,
    ).toBe(204);
    // none of these is counted, and each is answered the same
    const ignored = [
      await view({ path: '/about' }, { headers: { dnt: '1' } }),
      await view({ path: '/about' }, { headers: { 'sec-gpc': '1' } }),
      await view(
        { path: '/about' },
        { ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
      ),
      await view({ path: '/admin/blog' }),
      await view({ path: '/api/jobs' }),
      await view({ path: 'https://evil.example/' }),
      await view({ path: '/about', lang: 'xx' }),
      await view({ path: '/about' }, { ua: '' }),
    ];
    expect(ignored.map((r) => r.statusCode)).toEqual(Array(ignored.length).fill(204));
    await viewsStored(4);

    const rows = await app.db.selectFrom('analytics_view').selectAll().orderBy('view_id').execute();
    // nothing that names a person: no address, no agent, only a hash that changes with the day
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain('203.0.113.7');
    expect(stored).not.toContain('Chrome');
    expect(rows[0]).toMatchObject({
      path: '/careers',
      landing: '/careers',
      // the visit's source is what its link named (utm_source), over the site it came from
      referrer_host: 'newsletter',
      utm_source: 'newsletter',
      utm_campaign: 'autumn-hiring',
      device: 'desktop',
      language: 'fr',
    });
    expect(rows[2].path).toBe('/pricing');
    expect(new Set(rows.slice(0, 3).map((r) => r.visitor)).size).toBe(1);
    expect(rows[3]).toMatchObject({ device: 'mobile', referrer_host: 'news.example.org' });
    expect(rows[3].visitor).not.toBe(rows[0].visitor);

    const answer = await read();
    expect(answer.totals).toEqual({ visitors: 2, visits: 2, views: 4, bounces: 1 });
    expect(answer.pages.map((p) => p.key).sort()).toEqual([
      '/blog/hello',
      '/careers',
      '/careers/7-copy-editor',
      '/pricing',
    ]);
    expect(answer.referrers).toEqual([
      { key: 'news.example.org', visitors: 1, views: 1 },
      { key: 'newsletter', visitors: 1, views: 3 },
    ]);
    expect(answer.campaigns).toEqual([{ key: 'autumn-hiring', visitors: 1, views: 3 }]);
    expect(answer.devices.map((d) => d.key).sort()).toEqual(['desktop', 'mobile']);
    expect(answer.days).toEqual([{ day: today(), visitors: 2, visits: 2, views: 4 }]);

    // a filter narrows every table: the campaign's visit only
    const filtered = await read('&campaign=autumn-hiring');
    expect(filtered.totals).toEqual({ visitors: 1, visits: 1, views: 3, bounces: 0 });
    expect(filtered.pages.map((p) => p.key)).not.toContain('/blog/hello');
    // a page: its own visitors and views, and the visits that came in on it
    const page = await read(`&page=${encodeURIComponent('/blog/hello')}`);
    expect(page.totals).toEqual({ visitors: 1, visits: 1, views: 1, bounces: 1 });
    expect(page.referrers.map((r) => r.key)).toEqual(['news.example.org']);
  });

  it('refuses a body over 4 kB and takes a text/plain beacon', async () => {
    const big = await view({ path: `/${'a'.repeat(5000)}` });
    expect(big.statusCode).toBe(413);
    const plain = await app.inject({
      method: 'POST',
      url: '/api/views',
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': CHROME },
      payload: JSON.stringify({ path: '/contact' }),
    });
    expect(plain.statusCode).toBe(204);
    await viewsStored(5);
  });
});

describe('a visitor cannot be followed from one day to the next', () => {
  it('hashes with a secret of the day, deleted when the day has ended; the views go after ANALYTICS_RAW_DAYS, the figures stay', async () => {
    // days ahead of the clock (the rollup's lease remembers its last run)
    const day = (n: number) => addDays(today(), n);
    const at = (iso: string) => ({ ...app.services(), now: () => new Date(iso) });
    const country = async () => ({ code: 'IN' });
    const client = { ip: '192.0.2.9', userAgent: CHROME, host: 'localhost' };
    const monday = createViewCounter(at(`${day(40)}T10:00:00Z`), country);
    await monday.count({ path: '/pricing' }, client);
    await monday.count({ path: '/about', landing_page: '/pricing' }, client);
    await monday.close();
    const tuesday = createViewCounter(at(`${day(41)}T10:00:00Z`), country);
    await tuesday.count({ path: '/pricing' }, client);
    await tuesday.close();
    const rows = await app.db
      .selectFrom('analytics_view')
      .select(['day', 'visitor', 'country'])
      .where('day', 'in', [day(40), day(41)])
      .orderBy('view_id')
      .execute();
    expect(rows.map((r) => r.day)).toEqual([day(40), day(40), day(41)]);
    expect(rows[0].visitor).toBe(rows[1].visitor);
    expect(rows[2].visitor).not.toBe(rows[0].visitor);
    expect(rows[0].country).toBe('IN');

    // Tuesday's rollup: Monday's secret is gone, its figures are made
    expect(await runInsightsRollup(at(`${day(41)}T12:00:00Z`), { everyMs: 0 })).toBe(true);
    const secrets = await app.db.selectFrom('analytics_salt').select('day').execute();
    expect(secrets.map((s) => s.day)).not.toContain(day(40));
    const monthLater = at(`${day(90)}T12:00:00Z`);
    expect(await runInsightsRollup(monthLater, { everyMs: 0 })).toBe(true);
    const left = await app.db.selectFrom('analytics_view').select('day').where('day', '<', day(60)).execute();
    expect(left).toEqual([]);
    const figures = await app.inject({
      method: 'GET',
      url: `/api/admin/insights?from=${day(40)}&to=${day(41)}`,
      headers: analyst,
    });
    expect((figures.json() as InsightsAnswer).totals).toEqual({
      visitors: 2,
      visits: 2,
      views: 3,
      bounces: 1,
    });
    expect((figures.json() as InsightsAnswer).previous).toEqual({ from: day(38), to: day(39) });
    // the secrets: nothing kept of the past days
    expect(
      (await app.db.selectFrom('analytics_salt').select('day').execute()).every((s) => s.day >= day(90)),
    ).toBe(true);
  });
});

describe('conversions', () => {
  it('keeps where a contact message came from and counts it under its landing page, referrer and campaign', async () => {
    const sent = await app.inject({
      method: 'POST',
      url: '/api/contact-messages',
      headers: { 'content-type': 'application/json' },
      payload: {
        name: 'Meera Nair',
        email: 'meera@example.com',
        message: 'We publish four journals and would like a demo of the manuscript tools.',
        landing_page: '/careers?x=1',
        referrer_host: 'www.google.com',
        utm_source: 'newsletter',
        utm_campaign: 'Autumn-Hiring',
      },
    });
    expect(sent.statusCode).toBe(201);
    const row = await app.db
      .selectFrom('contact_message')
      .select(['landing_page', 'referrer_host', 'utm_source', 'utm_medium', 'utm_campaign'])
      .where('message_id', '=', sent.json().message_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      landing_page: '/careers',
      referrer_host: 'newsletter',
      utm_source: 'newsletter',
      utm_medium: null,
      utm_campaign: 'autumn-hiring',
    });
    const answer = await read();
    expect(answer.conversions.messages).toBe(1);
    expect(answer.conversions.by_campaign).toEqual([
      { key: 'autumn-hiring', visits: 1, applications: 0, messages: 1 },
    ]);
    expect(answer.conversions.by_landing[0]).toEqual({
      key: '/careers',
      visits: 1,
      applications: 0,
      messages: 1,
    });
    // the campaign filter keeps it; another campaign has none
    expect((await read('&campaign=autumn-hiring')).conversions.messages).toBe(1);
    expect((await read('&campaign=spring')).conversions.messages).toBe(0);

    const csv = await app.inject({
      method: 'GET',
      url: `/api/admin/insights.csv?from=${today()}&to=${today()}&table=conversions_by_campaign`,
      headers: analyst,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toBe('campaign,visits,applications,messages\r\nautumn-hiring,1,0,1\r\n');
  });
});

describe('figures a person can trust', () => {
  it('never shows a rate above 100%: a visit that sent three forms converted once', () => {
    expect(conversionRate(3, 1)).toBe(100);
    expect(conversionRate(4, 3)).toBe(100);
    expect(conversionRate(1, 3)).toBe(33.3);
    expect(conversionRate(0, 0)).toBe(0);
  });

  it('never counts a share preview or other private address, as a page or as a landing page', async () => {
    const fresh = await createTestApp({ ANALYTICS_VIEWS_PER_MIN: '1000' });
    try {
      const send = (body: object) =>
        fresh.inject({
          method: 'POST',
          url: '/api/views',
          remoteAddress: '203.0.113.50',
          headers: { 'content-type': 'application/json', 'user-agent': CHROME },
          payload: JSON.stringify(body),
        });
      const secret = '/blog/preview/12_0.1796000000.abcdefghijklmnopqrstuvwxyz';
      await send({ path: secret });
      await send({ path: '/media/private/cv/x.pdf' });
      await send({ path: '/blog', landing_page: secret });
      await expect
        .poll(async () => (await fresh.db.selectFrom('analytics_view').selectAll().execute()).length, {
          timeout: 5000,
        })
        .toBe(1);
      const rows = await fresh.db.selectFrom('analytics_view').selectAll().execute();
      expect(rows).toMatchObject([{ path: '/blog', landing: '/blog' }]);
      expect(JSON.stringify(rows)).not.toContain('preview');
    } finally {
      await fresh.close();
    }
  });

  it('counts a post under every visit that read it, and a renamed post as one row', async () => {
    const fresh = await createTestApp({ ANALYTICS_VIEWS_PER_MIN: '1000' });
    try {
      const reader = (await signInAs(fresh, { permissions: ['insights.read'] })).headers;
      const send = (ip: string, body: object) =>
        fresh.inject({
          method: 'POST',
          url: '/api/views',
          remoteAddress: ip,
          headers: { 'content-type': 'application/json', 'user-agent': CHROME },
          payload: JSON.stringify(body),
        });
      // a post that was renamed: its old address stays as a redirect
      const input = {
        title: 'Reading registers',
        excerpt: 'What they say.',
        content: '<p>Words.</p>',
        publication_date: 'August 6, 2025',
        publication_day: '2025-08-06',
        read_time: '5 min read',
        featured_image_url: '',
        status: 'Published' as const,
        publish_at: null,
        cover_alt: '',
        meta_title: '',
        meta_description: '',
        social_image_url: '',
        canonical_url: '',
        tags: '',
        author_id: null,
      };
      const post = await createPost(fresh.db, input);
      const old = post.slug;
      await updatePost(fresh.db, post, { ...input, slug: 'registers-read-well' });
      // one visit came in on the old address, one on the list and read the post, one on the new address
      await send('198.51.100.1', { path: `/blog/${old}` });
      await send('198.51.100.2', { path: '/blog' });
      await send('198.51.100.2', { path: '/blog/registers-read-well', landing_page: '/blog' });
      await send('198.51.100.3', { path: '/blog/registers-read-well' });
      await expect
        .poll(async () => (await fresh.db.selectFrom('analytics_view').selectAll().execute()).length, {
          timeout: 5000,
        })
        .toBe(4);
      const answer = (
        await fresh.inject({
          method: 'GET',
          url: `/api/admin/insights?from=${today()}&to=${today()}`,
          headers: reader,
        })
      ).json() as InsightsAnswer;
      expect(answer.conversions.posts).toEqual([
        { key: '/blog/registers-read-well', visits: 3, applications: 0, messages: 0 },
      ]);
      expect(answer.pages.filter((p) => p.key.startsWith('/blog/'))).toEqual([
        { key: '/blog/registers-read-well', visitors: 3, views: 3 },
      ]);
      expect(answer.landings.find((l) => l.key === '/blog/registers-read-well')).toMatchObject({ visits: 2 });
    } finally {
      await fresh.close();
    }
  });
});

describe('who may read the figures', () => {
  it('needs insights.read; a bad range is refused', async () => {
    const recruiter = (await signInAs(app, { permissions: ['applications.read', 'messages.read'] })).headers;
    const url = `/api/admin/insights?from=${today()}&to=${today()}`;
    expect((await app.inject({ method: 'GET', url, headers: recruiter })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    // without a range: the last 30 days to today
    const month = await app.inject({ method: 'GET', url: '/api/admin/insights', headers: analyst });
    expect(month.statusCode).toBe(200);
    expect(month.json()).toMatchObject({ from: addDays(today(), -29), to: today() });
    const bad = [
      'from=2020-01-01',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-03-02&to=2026-03-01',
      'from=2020-01-01&to=2026-01-01',
      `from=${today()}&to=${today()}&country=${'x'.repeat(400)}`,
    ];
    for (const q of bad) {
      const res = await app.inject({ method: 'GET', url: `/api/admin/insights?${q}`, headers: analyst });
      expect(res.statusCode, q).toBe(400);
    }
  });
});

describe('a stored view cannot be traced back to an address', () => {
  it("logs a beacon without the client's address and keeps only the view's day", async () => {
    const lines: Record<string, unknown>[] = [];
    const logged = await createTestApp(
      { LOG_LEVEL: 'info' },
      { write: (line) => lines.push(JSON.parse(line)) },
    );
    try {
      const address = '198.51.100.23';
      const res = await logged.inject({
        method: 'POST',
        url: '/api/views',
        remoteAddress: address,
        headers: { 'content-type': 'application/json', 'user-agent': CHROME },
        payload: JSON.stringify({ path: '/pricing' }),
      });
      expect(res.statusCode).toBe(204);
      // other requests still name their client
      await logged.inject({ method: 'GET', url: '/api/health', remoteAddress: address });
      const beacon = lines.find((l) => l.msg === 'request' && JSON.stringify(l.req).includes('/api/views'));
      const health = lines.find((l) => l.msg === 'request' && JSON.stringify(l.req).includes('/api/health'));
      expect(beacon).toBeDefined();
      expect(JSON.stringify(beacon)).not.toContain(address);
      expect(beacon!.req).not.toHaveProperty('remoteAddress');
      expect(JSON.stringify(health)).toContain(address);
      await logged.close(); // the counter writes what waits
    } finally {
      await logged.close().catch(() => {});
    }
  });

  it('stores a view with its day and no instant', async () => {
    const before = await app.db.selectFrom('analytics_view').selectAll().execute();
    expect((await view({ path: '/about' }, { ip: '198.51.100.24' })).statusCode).toBe(204);
    await viewsStored(before.length + 1);
    const rows = await app.db.selectFrom('analytics_view').selectAll().execute();
    const row = rows.find((r) => !before.some((b) => b.view_id === r.view_id))!;
    expect(row.day).toBe(today());
    // nothing finer than the day: no column holds a time of day or the address
    for (const value of Object.values(row)) {
      expect(String(value)).not.toMatch(/T\d{2}:\d{2}/);
      expect(String(value)).not.toContain('198.51.100.24');
    }
  });
});
