import type { Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';

// Marketing pages: the spec's texts and counts, prerendered HTML that reads without
// JavaScript, head tags, layout stability, sitemap and robots, and axe in English and Malayalam.

const REGISTER_URL = 'https://app.manna.example/register';
const LEGAL = [
  {
    path: '/privacy-policy',
    title: 'Privacy Policy',
    effective: true,
    fact: 'not aimed at children under 16',
  },
  {
    path: '/terms-of-service',
    title: 'Terms of Service',
    effective: true,
    fact: 'courts of Tamil Nadu, India',
  },
  { path: '/cookie-policy', title: 'Cookie Policy', effective: true, fact: 'do not use advertising cookies' },
  {
    path: '/cancellation-refund-policy',
    title: 'Cancellation & Refund Policy',
    effective: false,
    fact: 'non-refundable once activated',
  },
  { path: '/shipping-policy', title: 'Shipping Policy', effective: false, fact: 'delivered digitally' },
];
const PAGES = ['/', '/manuscript-automation', '/about', '/contact', ...LEGAL.map((l) => l.path)];
const STEPS = [
  'Submission',
  'Relevancy Check',
  'Journal Suggestion',
  'Plagiarism Check',
  'DOI Check',
  'Editor',
  'Peer Review',
  'EIC',
  'Final Editing',
  'Page Setting',
  'Proof Reading',
  'Publish',
  'Content Distribution',
];

async function hydrated(page: Page) {
  await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
}

test.describe('home', () => {
  test('shows the hero, why Manna, 12 features, 3 clients and 4 testimonials', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Smart automation for SMEs, powered by AI',
    );
    const cta = page.getByRole('link', { name: 'GET STARTED FOR FREE' });
    await expect(cta).toHaveAttribute('href', REGISTER_URL);

    await expect(page.getByText('WHY MANNA IS DIFFERENT')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Why SMEs Choose Manna' })).toBeVisible();
    await expect(page.getByText('Built for growing teams')).toBeVisible();
    for (const reason of [
      'Fast to set up',
      'Easy to use',
      'No IT team needed',
      'Scales with you',
      'Affordable',
    ]) {
      await expect(page.locator('strong', { hasText: new RegExp(`^${reason}$`) })).toBeVisible();
    }

    const features = page.getByTestId('feature-cards').getByRole('listitem');
    await expect(features).toHaveCount(12);
    await expect(features.getByRole('heading', { level: 3 })).toHaveText([
      'Guided Submissions',
      'Peer Review Automation',
      'Plagiarism Check',
      'AI Relevancy Check',
      'Editorial Workflow',
      'References Verification',
      'Automated DOI Allocation',
      'JATS XML Conversion',
      'Content Distribution',
      'Performance Reports',
      'Document Handling',
      'Role-Based Access',
    ]);

    await expect(page.getByTestId('client-logos').getByRole('listitem')).toHaveCount(3);

    const testimonials = page.getByTestId('testimonials').getByRole('figure');
    await expect(testimonials).toHaveCount(4);
    for (const card of await testimonials.all()) {
      await expect(card.locator('blockquote')).not.toBeEmpty();
      const img = card.locator('img');
      await expect(img).toHaveAttribute('width', '48');
      await expect(img).toHaveAttribute('height', '48');
    }
    await expect(testimonials.first()).toContainText('Dr. Meera Krishnan');
  });

  test('carries Organization structured data', async ({ request }) => {
    const html = await (await request.get('/')).text();
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
      JSON.parse(m[1]),
    );
    const org = blocks.find((b) => b['@type'] === 'Organization');
    expect(org).toMatchObject({ '@context': 'https://schema.org', name: 'Manna' });
    expect(org.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(org.address).toHaveLength(2);
  });
});

test.describe('manuscript automation', () => {
  test('shows the banner, 8 capabilities, screens, benefits and 10 integrations', async ({ page }) => {
    await page.goto('/manuscript-automation');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manuscript Automation');
    await expect(page.getByText('AI-powered editorial management for your journals')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Start Free Trial' }).first()).toHaveAttribute(
      'href',
      REGISTER_URL,
    );
    await expect(page.getByRole('link', { name: 'Book a Demo' }).first()).toHaveAttribute(
      'href',
      REGISTER_URL,
    );
    await expect(page.getByRole('heading', { name: 'Everything You Need in One Platform' })).toBeVisible();
    await expect(page.getByTestId('capabilities').getByRole('listitem')).toHaveCount(8);
    await expect(page.getByRole('heading', { name: 'See Manna at work' })).toBeVisible();
    await expect(page.getByRole('figure')).toHaveCount(3);
    await expect(page.getByRole('heading', { name: 'Why Publishers Choose Manna' })).toBeVisible();
    for (const benefit of [
      'Saves up to 50% of editorial time',
      'Organised workflows',
      'Built-in JATS and DOI compliance',
      'Automated chatbots',
      'AI support at every stage',
    ]) {
      await expect(page.getByText(benefit, { exact: true })).toBeVisible();
    }
    const integrations = page.getByTestId('integrations').getByRole('listitem');
    await expect(integrations).toHaveCount(10);
    await expect(integrations.first()).toHaveText('DOI Registration Agency');
  });

  test('lists the 13 editorial steps in order, in rows of 7 and 6 on a desktop', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/manuscript-automation');
    const steps = page.getByTestId('editorial-flow').getByRole('listitem');
    await expect(steps).toHaveCount(13);
    await expect(steps.locator('span:last-child')).toHaveText(STEPS);
    const tops = await steps.evaluateAll((els) =>
      els.map((el) => Math.round(el.getBoundingClientRect().top)),
    );
    const rows = [...new Set(tops)];
    expect(rows).toHaveLength(2);
    expect(tops.filter((t) => t === rows[0])).toHaveLength(7);
    expect(tops.filter((t) => t === rows[1])).toHaveLength(6);
  });

  test('stacks the editorial steps on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto('/manuscript-automation');
    const steps = page.getByTestId('editorial-flow').getByRole('listitem');
    const tops = await steps.evaluateAll((els) =>
      els.map((el) => Math.round(el.getBoundingClientRect().top)),
    );
    expect(new Set(tops).size).toBe(13);
    // nothing on the page is wider than the phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

test('about shows Our Story, Our Mission and Our Vision', async ({ page }) => {
  await page.goto('/about');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Manna');
  for (const name of ['Our Story', 'Our Mission', 'Our Vision']) {
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  }
});

test.describe('legal pages', () => {
  for (const legal of LEGAL) {
    test(`${legal.path} is a full policy in the shared layout`, async ({ page }) => {
      await page.goto(legal.path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(legal.title);
      if (legal.effective) await expect(page.getByText('Effective date: 01/08/2025')).toBeVisible();
      await expect(page.getByRole('article')).toContainText(legal.fact);
      expect(
        await page.getByRole('article').getByRole('heading', { level: 2 }).count(),
      ).toBeGreaterThanOrEqual(5);
      const policies = page.getByRole('navigation', { name: 'Policies' });
      await expect(policies.getByRole('link')).toHaveCount(5);
      await expect(policies.getByRole('link', { name: legal.title })).toHaveAttribute('aria-current', 'page');
    });
  }

  test('moving between policies loads each text', async ({ page }) => {
    await page.goto('/privacy-policy');
    await hydrated(page);
    await page
      .getByRole('navigation', { name: 'Policies' })
      .getByRole('link', { name: 'Terms of Service' })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of Service');
    await expect(page.getByRole('article')).toContainText('limited to the amount you paid us');
    await expect(page).toHaveTitle('Terms of Service | Manna');
  });

  test('the terms are in Malayalam at their Malayalam address', async ({ page }) => {
    await page.goto('/ml/terms-of-service');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('സേവന നിബന്ധനകൾ');
    await expect(page.getByRole('article')).toContainText('തമിഴ്നാട്ടിലെ കോടതികൾക്ക്');
    await hydrated(page);
  });
});

test.describe('prerendered and findable', () => {
  // one test per page, so a slow machine (the scale check runs two servers beside the browsers)
  // spends one timeout per page, and the pages spread over the workers
  const readable: Record<string, string[]> = {
    '/': [
      'Smart automation for SMEs, powered by AI',
      'Why SMEs Choose Manna',
      'Role-Based Access',
      'Prof. Amara Okafor',
    ],
    '/manuscript-automation': [
      'Everything You Need in One Platform',
      'Content Distribution',
      'AI Scholar Search',
    ],
    '/about': ['Our Story', 'Our Mission', 'Our Vision'],
    '/contact': [
      'Our Offices',
      'San Francisco, United States',
      'Get in Touch',
      "We'll get back to you within 24 hours.",
    ],
    ...Object.fromEntries(LEGAL.map((l) => [l.path, [l.title, l.fact]])),
  };
  test.describe('with JavaScript disabled', () => {
    test.use({ javaScriptEnabled: false });
    for (const [path, texts] of Object.entries(readable)) {
      test(`${path} reads in full`, async ({ page }) => {
        await page.goto(path);
        for (const text of texts) await expect(page.getByRole('main').getByText(text).first()).toBeVisible();
      });
    }
  });

  test('each page has its own title, description, canonical link and Open Graph and Twitter tags', async ({
    request,
  }) => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const path of PAGES) {
      const html = await (await request.get(path)).text();
      const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
      const description = /<meta name="description" content="([^"]+)"/.exec(html)?.[1];
      expect(title, path).toBeTruthy();
      expect(description, path).toBeTruthy();
      titles.add(title!);
      descriptions.add(description!);
      expect(html).toMatch(
        new RegExp(`<link rel="canonical" href="http://127\\.0\\.0\\.1:\\d+${path === '/' ? '/' : path}"`),
      );
      for (const tag of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type']) {
        expect(html, `${path} ${tag}`).toContain(`property="${tag}"`);
      }
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image"');
    }
    expect(titles.size).toBe(PAGES.length);
    expect(descriptions.size).toBe(PAGES.length);
  });

  test('the link-preview image exists and is a 1200x630 PNG', async ({ request }) => {
    const res = await request.get('/og-image.png');
    expect(res.status()).toBe(200);
    const png = await res.body();
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
  });

  for (const path of PAGES) {
    test(`${path} hydrates without layout shift`, async ({ page }) => {
      await page.goto(path);
      await hydrated(page);
      const cls = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let total = 0;
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries() as (PerformanceEntry & {
                value: number;
                hadRecentInput: boolean;
              })[]) {
                if (!entry.hadRecentInput) total += entry.value;
              }
            }).observe({ type: 'layout-shift', buffered: true });
            setTimeout(() => resolve(total), 500);
          }),
      );
      expect(cls).toBeLessThan(0.05);
    });
  }

  test("sitemap.xml lists each language's sitemap, which lists every public page, and robots.txt points to it", async ({
    request,
  }) => {
    const index = await (await request.get('/sitemap.xml')).text();
    const maps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(maps).toEqual([
      '/sitemap-en.xml',
      '/sitemap-ml.xml',
      '/sitemap-fr.xml',
      '/sitemap-de.xml',
      '/sitemap-es.xml',
    ]);
    for (const [lang, prefix] of [
      ['en', ''],
      ['de', '/de'],
    ]) {
      const sitemap = await request.get(`/sitemap-${lang}.xml`);
      expect(sitemap.status()).toBe(200);
      expect(sitemap.headers()['content-type']).toMatch(/xml/);
      const xml = await sitemap.text();
      for (const path of [...PAGES, '/pricing', '/careers', '/blog', '/ComingSoon']) {
        const local = prefix ? (path === '/' ? prefix : prefix + path) : path;
        expect(xml).toContain(`:${new URL(sitemap.url()).port}${local}</loc>`);
      }
      expect(xml).not.toContain('/admin');
    }
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toContain('Disallow: /admin');
    expect(robots).toMatch(/Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml/);
  });
});

test.describe('accessibility', () => {
  // in English, shell.spec.ts runs axe on every public page already: here, the other script
  for (const lang of ['ml']) {
    for (const path of PAGES) {
      test(`${path} passes axe in ${lang === 'en' ? 'English' : 'Malayalam'}`, async ({ page }) => {
        await page.goto(path === '/' ? `/${lang}` : `/${lang}${path}`);
        await hydrated(page);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expectNoAxeViolations(page, { label: `${path} (${lang})` });
      });
    }
  }

  test('the phone layout passes axe on the home and contact pages', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/', '/contact']) {
      await page.goto(path);
      await hydrated(page);
      await expectNoAxeViolations(page, { label: `${path} (phone)` });
    }
  });
});
