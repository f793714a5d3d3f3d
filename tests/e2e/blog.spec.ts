import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { layoutShifts, watchLayoutShifts } from './layout-shifts';
import { blogApi, makeUser, OWNER, signIn } from './admin-helpers';
import { samplePng } from '../fixtures/images';
import { xssPayloads } from '../fixtures/xss-payloads';
import { copyKept } from './offline-helpers';

// One database for the whole run: these tests add and remove posts, so they run one after another.
test.describe.configure({ mode: 'serial' });

const SEEDED = 'keeping-a-research-log-your-future-self-can-read';
const SEEDED_TITLE = 'Keeping a Research Log Your Future Self Can Read';
const DRAFT_TITLE = 'Writing Routines of Working Historians';

const cards = (page: Page) => page.getByRole('list', { name: 'Blog posts' }).getByRole('listitem');

test.describe('public blog', () => {
  test('the first HTML lists the first published posts (nothing left to load), with every part of a card', async ({
    page,
    request,
  }) => {
    const html = await (await request.get('/blog')).text();
    expect(html).not.toContain('Loading...');
    expect(html).toContain('<h1>Blog</h1>');
    expect(html).toContain(SEEDED_TITLE);
    expect(html).not.toContain(DRAFT_TITLE);

    await page.goto('/blog');
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    await expect(page.getByText('Notes on the writing process and historical research')).toBeVisible();
    await expect(cards(page)).toHaveCount(9);
    await expect(page.getByText(DRAFT_TITLE)).toHaveCount(0);

    const first = cards(page).first();
    await expect(first.getByRole('heading', { name: SEEDED_TITLE })).toBeVisible();
    // readers never see a post's status (docs/decisions/025-blog-publishing.md)
    await expect(first.getByText('Published', { exact: true })).toHaveCount(0);
    // en-US reader (playwright.config.ts locale)
    await expect(first.locator('time')).toHaveText('August 6, 2025');
    await expect(first.locator('time')).toHaveAttribute('datetime', '2025-08-06');
    await expect(first.getByText('5 min read')).toBeVisible();
    await expect(first.getByText('Six months from now you will not remember')).toBeVisible();
    const image = first.locator('img');
    await expect(image).toHaveAttribute('src', /^\/media\/blog\/[0-9a-f-]{36}\.svg$/);
    // loaded, as a reader sees it a moment later (behind the scale check's proxy it can take a moment)
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);

    // the 200-character preview, Read More / Show Less
    const preview = first.locator('p').filter({ hasText: 'Every researcher has lost an afternoon' });
    const text = (await preview.textContent())!;
    expect(text.endsWith('...')).toBe(true);
    expect(Array.from(text.replace(/\.\.\.$/, '')).length).toBeLessThanOrEqual(200);
    await first.getByRole('button', { name: 'Read More' }).click();
    await expect(first.getByRole('heading', { level: 2, name: 'Write for a stranger' })).toBeVisible();
    await expect(first.getByRole('button', { name: 'Show Less' })).toHaveAttribute('aria-expanded', 'true');
    await first.getByRole('button', { name: 'Show Less' }).click();
    await expect(first.getByRole('heading', { level: 2, name: 'Write for a stranger' })).toHaveCount(0);

    await expect(page.getByRole('navigation', { name: 'Blog pages' })).toHaveCount(0); // one page only
    await expectNoAxeViolations(page);
  });

  test('shows dates in the reader locale (en-GB reads 6 August 2025; German page: 6. August 2025)', async ({
    browser,
    baseURL,
  }) => {
    const uk = await browser.newContext({ locale: 'en-GB', baseURL });
    const page = await uk.newPage();
    await page.goto('/blog');
    await expect(cards(page).first().locator('time')).toHaveText('6 August 2025');
    // the German blog is at its own address (docs/decisions/041-language-addresses.md)
    await page.goto('/de/blog');
    await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
    const german = page.getByRole('list', { name: 'Blogbeiträge' }).getByRole('listitem').first();
    await expect(german.locator('time')).toHaveText('6. August 2025');
    await expect(german.getByText('Veröffentlicht')).toHaveCount(0);
    // the read time in the page's language too
    await expect(german.getByText(/^\d+ Min\. Lesezeit$/)).toBeVisible();
    await expect(german.getByText(/min read/)).toHaveCount(0);
    await uk.close();
  });

  test.describe('without images', () => {
    // the refused images are failed resources in Chromium's console
    test.use({ allowedConsoleErrors: [/Failed to load resource/] });
    test('an image that cannot be had shows "No Image"', async ({ page }) => {
      await page.route('**/media/blog/**', (route) => route.fulfill({ status: 404, body: '' }));
      await page.goto('/blog');
      await expect(cards(page).first().getByText('No Image')).toBeVisible();
      await expect(cards(page).first().locator('img')).toHaveCount(0);
    });
  });

  test.describe('when the blog cannot be fetched', () => {
    test.use({ allowedConsoleErrors: [/Failed to load resource/] });

    test('logs it, says so quietly, shows the kept copy, and Retry loads the posts', async ({ page }) => {
      const warnings: string[] = [];
      page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
      await page.goto('/blog'); // a first visit keeps a copy of page 1
      await expect(cards(page)).toHaveCount(9);
      await expect.poll(() => copyKept(page, 'blog', 'firstPage')).toBe(true);

      // the page itself comes with its posts; the list loads them when reached inside the app
      const toBlog = async () => {
        await page.goto('/about');
        await page.getByRole('contentinfo').getByRole('link', { name: 'Blog', exact: true }).click();
        await expect(page).toHaveURL(/\/blog$/);
      };
      await page.route('**/api/bind-company-blog**', (route) => route.abort());
      await toBlog();
      await expect(page.getByText('The latest posts could not be loaded right now.')).toBeVisible();
      await expect(page.getByText(/^Showing saved copy from \w{3} \d{1,2}, \d{4}/)).toBeVisible();
      await expect(cards(page)).toHaveCount(9);
      expect(warnings.some((w) => w.startsWith('Error fetching blog posts'))).toBe(true);

      // forget the kept copy (IndexedDB, src/offline/cache.ts; the page's connection closes itself)
      await page.evaluate(
        () =>
          new Promise<void>((resolve, reject) => {
            const request = indexedDB.deleteDatabase('manna-offline');
            request.onsuccess = () => resolve();
            request.onerror = () => reject(request.error);
          }),
      );
      await toBlog();
      await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
      await expect(cards(page)).toHaveCount(0);
      await page.unroute('**/api/bind-company-blog**');
      await page.getByRole('button', { name: 'Retry' }).click();
      await expect(cards(page)).toHaveCount(9);
    });
  });

  test('pages through more than 10 posts with Previous, page buttons and Next', async ({
    page,
    request,
    baseURL,
  }) => {
    const api = await blogApi(request, baseURL!);
    const added = [];
    for (let i = 0; i < 3; i++) {
      added.push(
        await api.create({
          title: `Pagination check ${i} ${Date.now()}`,
          excerpt: 'A post for the pagination test.',
          content: '<p>Short body.</p>',
          publication_date: 'January 1, 2001',
        }),
      );
    }
    try {
      await page.goto('/blog');
      const nav = page.getByRole('navigation', { name: 'Blog pages' });
      await expect(cards(page)).toHaveCount(10);
      await expect(nav.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
      await expect(nav.getByRole('button', { name: 'Previous' })).toBeDisabled();
      await nav.getByRole('button', { name: 'Next' }).click();
      await expect(cards(page)).toHaveCount(2);
      await expect(nav.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
      await expect(cards(page).last()).toContainText('Pagination check');
      await nav.getByRole('button', { name: 'Page 1' }).click();
      await expect(cards(page)).toHaveCount(10);
    } finally {
      for (const post of added) await api.remove(post.blog_id);
    }
  });
});

test.describe('permalink pages and the feed', () => {
  test('a permalink is rendered by the server with the whole post, its head and Article JSON-LD', async ({
    page,
    request,
  }) => {
    const res = await request.get(`/blog/${SEEDED}`);
    expect(res.status()).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<title>${SEEDED_TITLE} | Manna Blog</title>`);
    expect(html).toContain('<meta property="og:type" content="article" />');
    expect(html).toContain('Write for a stranger</h2>'); // the content, in the HTML
    const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)![1]);
    expect(jsonLd).toMatchObject({ '@type': 'Article', headline: SEEDED_TITLE, datePublished: '2025-08-06' });

    await page.goto(`/blog/${SEEDED}`);
    await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
    await expect(page.getByRole('heading', { level: 1, name: SEEDED_TITLE })).toBeVisible();
    await expect(page.locator('time')).toHaveText('August 6, 2025');
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'All posts' }).click();
    await expect(page).toHaveURL(/\/blog$/);
    await expect(cards(page)).toHaveCount(9);
  });

  test("a card title opens the permalink in the app; a draft or unknown slug is the blog's 404", async ({
    page,
    request,
  }) => {
    await page.goto('/blog');
    await cards(page).nth(1).getByRole('link').click();
    await expect(page).toHaveURL(/\/blog\/reading-old-handwriting-a-beginners-guide-to-palaeography$/);
    await expect(
      page.getByRole('heading', {
        level: 1,
        name: "Reading Old Handwriting: A Beginner's Guide to Palaeography",
      }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Expect abbreviations' })).toBeVisible();
    await expect(page).toHaveTitle(
      "Reading Old Handwriting: A Beginner's Guide to Palaeography | Manna Blog",
    );

    expect((await request.get('/blog/writing-routines-of-working-historians')).status()).toBe(404);
    const missing = await page.goto('/blog/no-such-post');
    expect(missing?.status()).toBe(404);
    await expect(page.locator('#root')).toHaveAttribute('data-hydrated', 'true');
    await expect(page.getByRole('heading', { level: 1, name: 'Blog post not found' })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await page.getByRole('link', { name: 'All posts' }).click();
    await expect(cards(page)).toHaveCount(9);
  });

  test('/blog/rss.xml is a well-formed RSS 2.0 feed of the published posts', async ({ page, request }) => {
    const res = await request.get('/blog/rss.xml');
    expect(res.headers()['content-type']).toBe('application/rss+xml; charset=utf-8');
    const xml = await res.text();
    await page.goto('/blog');
    const feed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        version: doc.documentElement.getAttribute('version'),
        titles: [...doc.querySelectorAll('item > title')].map((n) => n.textContent),
        links: [...doc.querySelectorAll('item > link')].map((n) => n.textContent),
      };
    }, xml);
    expect(feed.error).toBeNull();
    expect(feed.version).toBe('2.0');
    expect(feed.titles).toHaveLength(9);
    expect(feed.titles[0]).toBe(SEEDED_TITLE);
    expect(feed.titles).not.toContain(DRAFT_TITLE);
    expect(feed.links[0]).toMatch(new RegExp(`/blog/${SEEDED}$`));
  });
});

test.describe('Blog Management', () => {
  const unique = () => Date.now().toString(36).replace(/\d/g, 'x');

  test('creates with an upload, edits, toggles, searches, paginates and deletes', async ({ page }) => {
    const word = `Quillwort${unique()}`;
    const title = `${word} field notes`;
    await signIn(page, OWNER, '/admin/blog');
    await expect(page.getByRole('heading', { level: 2, name: 'Blog Management' })).toBeVisible();
    await expect(page.getByText('Showing 1-10 of 12 posts')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Blog post pages' })).toBeVisible();
    await expectNoAxeViolations(page);

    // create, with an uploaded image
    await page.getByRole('button', { name: 'New Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Blog Post' });
    await expect(dialog.getByLabel('Publication Date')).toHaveAttribute('placeholder', 'August 6, 2025');
    await expect(dialog.getByLabel('Publication Date')).toHaveValue(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    await expect(dialog.getByLabel('Read Time')).toHaveAttribute('placeholder', '5 min read');
    await expect(dialog.getByLabel('Publish immediately')).not.toBeChecked();
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Excerpt').fill('Notes from a week in the county record office.');
    await page.locator('#blog-content-editor').click();
    await page.keyboard.type('Boxes 14 to 19 held the vestry minutes.');
    await dialog.getByLabel('Publication Date').fill('March 3, 2031');
    await dialog.getByLabel('Read Time').fill('4 min read');
    await page
      .locator('#blog-image-file')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: samplePng() });
    await expect(dialog.getByText('Chosen file: cover.png')).toBeVisible();
    await expect(dialog.getByRole('img', { name: 'Image preview' })).toBeVisible();
    await dialog.getByLabel('Cover alt text').fill('Vestry minutes in a grey box');
    await expectNoAxeViolations(page, { include: ['dialog'] });
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    await expect(page.getByText('Post Created')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const card = page.getByRole('listitem').filter({ hasText: title });
    await expect(card).toBeVisible();
    await expect(card.getByRole('button', { name: /^Draft\./ })).toBeVisible();
    // the upload is drawn from its widths (WebP made by the server), never the original
    const img = card.locator('img');
    await expect(img).toHaveAttribute('src', /^\/media\/blog\/[0-9a-f-]{36}\.png\?w=960$/);
    await expect(img).toHaveAttribute('srcset', /\?w=480 480w, .*\?w=960 960w, .*\?w=1600 1600w$/);
    await expect
      .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0 && i.currentSrc))
      .toMatch(/\.png\?w=(480|960|1600)$/);
    await expect(page.getByText('Showing 1-10 of 13 posts')).toBeVisible();
    // a draft never reaches the public blog
    expect(await (await page.request.get(`/api/bind-company-blog?search=${word}`)).json()).toEqual([]);

    // edit
    await card.getByRole('button', { name: `Edit “${title}”` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Blog Post' });
    await expect(edit.getByLabel('Title', { exact: true })).toHaveValue(title);
    await expect(edit.getByText("The post's uploaded image")).toBeVisible();
    await edit.getByLabel('Excerpt').fill('Revised notes from the county record office.');
    await edit.getByRole('button', { name: 'Update Post' }).click();
    await expect(page.getByText('Post Updated')).toBeVisible();
    await expect(card.getByText('Revised notes from the county record office.')).toBeVisible();

    // toggle the status from the badge
    await card.getByRole('button', { name: /^Draft\./ }).click();
    await expect(page.getByText('Status Updated')).toBeVisible();
    await expect(card.getByRole('button', { name: /^Published\./ })).toBeVisible();
    const pub = await page.request.get(`/api/bind-company-blog?search=${word}`);
    expect((await pub.json()).map((r: { title: string }) => r.title)).toEqual([title]);

    // search (debounced) and clear
    await page.getByLabel('Search blog posts').fill(word);
    await expect(page.getByRole('list', { name: 'Blog posts' }).getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText('Showing 1-1 of 1 posts')).toBeVisible();
    await page.getByLabel('Search blog posts').fill(`${word}zzz`);
    await expect(page.getByText('No blog posts found', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Clear Search' }).click();
    await expect(page.getByLabel('Search blog posts')).toHaveValue('');
    await expect(page.getByText('Showing 1-10 of 13 posts')).toBeVisible();

    // paginate
    const pages = page.getByRole('navigation', { name: 'Blog post pages' });
    await pages.getByRole('button', { name: 'Page 2' }).click();
    await expect(page.getByText('Showing 11-13 of 13 posts')).toBeVisible();
    await pages.getByRole('button', { name: 'Previous' }).click();
    await expect(page.getByText('Showing 1-10 of 13 posts')).toBeVisible();

    // delete
    await card.getByRole('button', { name: `Delete “${title}”` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete blog post' });
    await expect(confirm.getByText('Are you sure you want to delete this blog post?')).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Post Deleted: Blog has been deleted.')).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);
    await expect(page.getByText('Showing 1-10 of 12 posts')).toBeVisible();
  });

  test('a paragraph typed in the editor is stored with ordinary spaces and never breaks inside a word on a phone', async ({
    page,
  }) => {
    const word = `Wordwrap${unique()}`;
    const paragraph =
      `${word} came to really help managing editors with manuscripts, reviewers and deadlines, ` +
      'and this paragraph is long enough to wrap several times on a narrow phone screen without breaking words.';
    await signIn(page, OWNER, '/admin/blog');
    await page.getByRole('button', { name: 'New Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Blog Post' });
    await dialog.getByLabel('Title', { exact: true }).fill(`${word} typed by hand`);
    await dialog.getByLabel('Excerpt').fill('A paragraph typed on the keyboard.');
    await page.locator('#blog-content-editor').click();
    await page.keyboard.type(paragraph);
    await dialog.getByLabel('Read Time').fill('1 min read');
    await page
      .locator('#blog-image-file')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: samplePng() });
    await dialog.getByLabel('Cover alt text').fill('A blue square');
    await dialog.getByLabel('Publish immediately').check();
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    await expect(page.getByText('Post Created')).toBeVisible();

    const [row] = (await (await page.request.get(`/api/bind-company-blog?search=${word}`)).json()) as {
      content: string;
      slug: string;
    }[];
    expect(row.content).toContain(paragraph.slice(0, 40));
    expect(row.content).not.toMatch(/\u00a0|&nbsp;|&#160;/);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/blog/${row.slug}`);
    const content = page.locator('article p').filter({ hasText: word });
    await expect(content).toBeVisible();
    // every word of the paragraph stands on one line: a word broken across lines has two boxes
    const split = await content.evaluate((p) => {
      const text = p.firstChild as Text;
      const broken: string[] = [];
      for (const match of text.data.matchAll(/\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
      return { broken, height: p.getBoundingClientRect().height };
    });
    expect(split.broken).toEqual([]);
    expect(split.height).toBeGreaterThan(60); // it did wrap, over several lines
  });

  test('shows every validation message for 2.5 s, and refuses a file that is not an image', async ({
    page,
  }) => {
    await page.clock.install();
    await signIn(page, OWNER, '/admin/blog');
    await page.getByRole('button', { name: 'New Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Blog Post' });
    await dialog.getByLabel('Publication Date').fill('');
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    // focusing the first field waits for the next frame
    await page.clock.runFor(100);
    for (const message of [
      'Title is required',
      'Excerpt is required',
      'Content is required',
      'Publication date is required',
      'Read time is required',
      'Featured image is required',
    ]) {
      await expect(dialog.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(dialog.getByLabel('Title', { exact: true })).toBeFocused();
    // on the page's own clock: still there at 2.4 s, gone at 2.6 s
    await page.clock.runFor(2300);
    await expect(dialog.getByText('Title is required')).toBeVisible();
    await page.clock.runFor(200);
    await expect(dialog.getByText('Title is required')).toHaveCount(0);
    await page.clock.resume();

    await dialog.getByLabel('Title', { exact: true }).fill('x'.repeat(100));
    await dialog.getByLabel('Read Time').fill('5 mins read');
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    await expect(dialog.getByText('Title must be less than 100 characters')).toBeVisible();
    await expect(dialog.getByText("Format should be 'X min read' (e.g., '5 min read')")).toBeVisible();

    await page
      .locator('#blog-image-file')
      .setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await expect(dialog.getByText('Please upload a valid image file')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
  });

  test('shows "No blog posts yet" with "Create First Post" when there are none', async ({ page }) => {
    await page.route('**/api/admin/blog-posts**', (route) => route.fulfill({ json: [] }));
    await signIn(page, OWNER, '/admin/blog');
    await expect(page.getByText('No blog posts yet')).toBeVisible();
    await page.getByRole('button', { name: 'Create First Post' }).click();
    await expect(page.getByRole('dialog', { name: 'Create New Blog Post' })).toBeVisible();
  });

  test.describe('when a status cannot be saved', () => {
    // one pattern: a two-item array here would read as a fixture definition
    test.use({ allowedConsoleErrors: [/status of 500|Publication status could not be saved/] });
    test('says "Failed to update publication status" and leaves the badge', async ({ page }) => {
      await signIn(page, OWNER, '/admin/blog');
      const card = page.getByRole('listitem').filter({ hasText: DRAFT_TITLE });
      // the badge sends the status alone (PATCH /api/admin/blog-posts/:id)
      await page.route('**/api/admin/blog-posts/*', (route) =>
        route.request().method() === 'PATCH'
          ? route.fulfill({ status: 500, json: { message: 'Internal error' } })
          : route.fallback(),
      );
      await card.getByRole('button', { name: /^Draft\./ }).click();
      await expect(page.getByText('Failed to update publication status')).toBeVisible();
      await expect(card.getByRole('button', { name: /^Draft\./ })).toBeVisible();
    });
  });

  test('a long post being written survives a killed tab: reopening offers to restore it, and Cancel drops the draft', async ({
    page,
    context,
  }) => {
    const title = `Draft ${unique()} of a long post`;
    const body = 'The vestry minutes run from 1791 to 1843 and name every overseer of the poor. '
      .repeat(8)
      .trim();
    await signIn(page, OWNER, '/admin/blog');
    await page.getByRole('button', { name: 'New Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Blog Post' });
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await page.locator('#blog-content-editor').click();
    await page.keyboard.type(body);
    // kept on the device a moment after the last keystroke; then the tab dies without a goodbye
    const storedContent = () =>
      page.evaluate(
        () =>
          new Promise<string | null>((resolve) => {
            const open = indexedDB.open('manna-offline');
            open.onerror = () => resolve(null);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains('copies')) return resolve(null);
              const all = db.transaction('copies').objectStore('copies').getAll();
              all.onsuccess = () =>
                resolve(
                  (all.result as { store: string; value: { content?: string } }[]).find(
                    (r) => r.store === 'drafts',
                  )?.value.content ?? null,
                );
            };
          }),
      );
    await expect
      .poll(storedContent, { timeout: 10_000 })
      .toMatch(/overseer(&nbsp;| )of(&nbsp;| )the(&nbsp;| )poor\.<\/p>$/);
    await page.close({ runBeforeUnload: false });

    const again = await context.newPage();
    await again.goto('/admin/blog');
    await again.getByRole('button', { name: 'New Post' }).click();
    const reopened = again.getByRole('dialog', { name: 'Create New Blog Post' });
    await expect(reopened.getByText(/^Restore unsaved changes from .+\?$/)).toBeVisible();
    await reopened.getByRole('button', { name: 'Restore' }).click();
    await expect(reopened.getByLabel('Title', { exact: true })).toHaveValue(title);
    await expect(again.locator('#blog-content-editor')).toContainText('overseer of the poor.');
    // Cancel: nothing saved, and the draft is gone
    await reopened.getByRole('button', { name: 'Cancel' }).click();
    await again.getByRole('button', { name: 'New Post' }).click();
    await expect(reopened.getByLabel('Title', { exact: true })).toHaveValue('');
    await expect(reopened.getByText(/Restore unsaved changes/)).toHaveCount(0);
    await reopened.getByRole('button', { name: 'Cancel' }).click();
  });
});

test.describe('two colleagues on one post', () => {
  // a refused stale save is a 409 answer, which Chromium logs as a failed resource
  test.use({ allowedConsoleErrors: [/status of 409/] });
  const unique = () => Date.now().toString(36).replace(/\d/g, 'x');

  test('a stale "Publish immediately" cannot put a post back online, and the same field opens the conflict view', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    const word = `Collision${unique()}`;
    const title = `${word} in the reading room`;
    const api = await blogApi(request, baseURL!);
    const post = await api.create({
      title,
      excerpt: 'Two archivists, one catalogue.',
      content: '<p>Who moved box 14?</p>',
      status: 'Published',
    });
    const colleague = await makeUser(request, baseURL!, 'editor');
    const open = async (p: Page) => {
      await p.getByLabel('Search blog posts').fill(word);
      const card = p.getByRole('listitem').filter({ hasText: title });
      await expect(card).toHaveCount(1);
      return card;
    };
    const publicRows = async () =>
      (await (await request.get(`/api/bind-company-blog?search=${word}`)).json()) as { read_time: string }[];

    await signIn(page, OWNER, '/admin/blog');
    const myCard = await open(page);
    const other = await browser.newContext();
    const theirPage = await other.newPage();
    try {
      await signIn(theirPage, colleague, '/admin/blog');
      const theirCard = await open(theirPage);
      // the colleague opens the post while it is online; the owner then takes it offline
      await theirCard.getByRole('button', { name: `Edit “${title}”` }).click();
      const theirs = theirPage.getByRole('dialog', { name: 'Edit Blog Post' });
      await expect(theirs.getByLabel('Publish immediately')).toBeChecked();
      await myCard.getByRole('button', { name: /^Published\./ }).click();
      await expect(myCard.getByRole('button', { name: /^Draft\./ })).toBeVisible();
      expect(await publicRows()).toEqual([]);
      // the colleague changes only the read time, with the stale tick still shown, and saves
      await theirs.getByLabel('Read Time').fill('9 min read');
      await theirs.getByRole('button', { name: 'Update Post' }).click();
      await expect(
        theirPage.getByText(`Saved together: ${OWNER.email} had changed other fields meanwhile`),
      ).toBeVisible();
      await expect(theirs).toHaveCount(0);
      await expect(theirCard.getByRole('button', { name: /^Draft\./ })).toBeVisible();
      expect(await publicRows()).toEqual([]);

      // both change the excerpt: the later save shows theirs beside mine and waits
      await page.reload();
      const myCard2 = await open(page);
      // my editor has told the server it is open before theirs asks who else is (two processes
      // behind a proxy may take the two in either order)
      const myBeat = page.waitForResponse(
        (r) => r.url().includes('/api/admin/presence/') && r.request().method() === 'PUT' && r.ok(),
      );
      await myCard2.getByRole('button', { name: `Edit “${title}”` }).click();
      const mine = page.getByRole('dialog', { name: 'Edit Blog Post' });
      await myBeat;
      await theirCard.getByRole('button', { name: `Edit “${title}”` }).click();
      // the colleague is told who else has the post open (no lock)
      await expect(
        theirs.getByRole('status').getByText(`${OWNER.email} is editing this since`),
      ).toBeVisible();
      // nobody is told of themselves
      await expect(mine.getByRole('status').getByText(`${OWNER.email} is editing`)).toHaveCount(0);
      await theirs.getByLabel('Excerpt').fill('Their excerpt, saved first.');
      await theirs.getByRole('button', { name: 'Update Post' }).click();
      await expect(theirs).toHaveCount(0);
      // they saved, and the editor closed: they said goodbye, so my next heartbeat lists nobody
      const origin = { origin: new URL(page.url()).origin };
      const presence = `/api/admin/presence/blog_post/${post.blog_id}`;
      await expect
        .poll(async () =>
          (
            await page.request.put(presence, { headers: origin, data: { editor_id: 'e2e-presence-check' } })
          ).json(),
        )
        .toEqual({ others: [] });
      await page.request.delete(`${presence}/e2e-presence-check`, { headers: origin });
      await mine.getByLabel('Excerpt').fill('My excerpt, saved second.');
      await mine.getByLabel('Title', { exact: true }).fill(`${title}, revised`);
      await mine.getByRole('button', { name: 'Update Post' }).click();
      const conflict = mine.getByRole('alert').filter({ hasText: 'while you were editing' });
      await expect(conflict).toContainText(`${colleague.email} changed this at`);
      await expect(conflict).toContainText('Their excerpt, saved first.');
      await expect(conflict).toContainText('My excerpt, saved second.');
      await expect(conflict.getByRole('button', { name: 'Keep my changes' })).toBeFocused();
      await expect(mine.getByLabel('Excerpt')).toHaveValue('My excerpt, saved second.');
      await expectNoAxeViolations(page, { include: ['dialog'] });
      await conflict.getByRole('button', { name: 'Take theirs' }).click();
      await expect(conflict).toHaveCount(0);
      await expect(mine.getByLabel('Excerpt')).toHaveValue('Their excerpt, saved first.');
      await expect(mine.getByLabel('Title', { exact: true })).toHaveValue(`${title}, revised`);
      await mine.getByRole('button', { name: 'Update Post' }).click();
      await expect(page.getByText('Post Updated')).toBeVisible();
      const stored = (await (await page.request.get(`/api/admin/blog-posts?search=${word}`)).json()) as {
        title: string;
        excerpt: string;
        read_time: string;
        status: string;
      }[];
      expect(stored).toMatchObject([
        {
          title: `${title}, revised`,
          excerpt: 'Their excerpt, saved first.',
          read_time: '9 min read',
          status: 'Draft',
        },
      ]);
    } finally {
      await other.close();
      await api.remove(post.blog_id);
    }
  });
});

test.describe('changes made offline', () => {
  test.use({
    allowedConsoleErrors: [/status of 409|Failed to fetch|ERR_INTERNET_DISCONNECTED|Error fetching/],
  });
  const unique = () => Date.now().toString(36).replace(/\d/g, 'x');

  test('a list that could not load offline fills again by itself when the connection is back', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const word = `Tunnel${unique()}`;
    const api = await blogApi(request, baseURL!);
    const post = await api.create({
      title: `${word} and back`,
      excerpt: 'Found after the signal returned.',
      content: '<p>No Retry needed.</p>',
      status: 'Draft',
    });
    try {
      await signIn(page, OWNER, '/admin/blog');
      await expect(page.getByText(/^Showing 1-/)).toBeVisible();
      // what the page loads once it is idle (the worker's start module and its styles) is in first
      await page.waitForLoadState('networkidle');
      await context.setOffline(true);
      await page.getByLabel('Search blog posts').fill(word);
      await expect(page.getByText('The blog posts could not be loaded.')).toBeVisible();
      await context.setOffline(false);
      await expect(page.getByRole('listitem').filter({ hasText: `${word} and back` })).toBeVisible();
      await expect(page.getByText('The blog posts could not be loaded.')).toHaveCount(0);
    } finally {
      await api.remove(post.blog_id);
    }
  });

  test("a post saved without a connection waits on the device with its new image; on return it meets a colleague's change in the conflict view", async ({
    page,
    context,
    browser,
    request,
    baseURL,
  }) => {
    const word = `Vellum${unique()}`;
    const title = `${word} on the train`;
    const api = await blogApi(request, baseURL!);
    const post = await api.create({
      title,
      excerpt: 'Written before the tunnel.',
      content: '<p>The signal comes and goes.</p>',
      status: 'Draft',
    });
    const colleague = await makeUser(request, baseURL!, 'editor');
    try {
      await signIn(page, OWNER, '/admin/blog');
      await page.getByLabel('Search blog posts').fill(word);
      const card = page.getByRole('listitem').filter({ hasText: title });
      // the search has been run (not only the first page, where a new post also shows)
      await expect(page.getByText(/^Showing 1-1 of 1\b/)).toBeVisible();
      await expect(card).toHaveCount(1);
      const dialog = page.getByRole('dialog', { name: 'Edit Blog Post' });
      const waiting = page.getByRole('region', { name: 'Waiting to send' });
      const entry = waiting.getByRole('listitem').filter({ hasText: `Post: ${title}` });

      // offline: a new excerpt and a new image are kept on the device
      await context.setOffline(true);
      await card.getByRole('button', { name: `Edit “${title}”` }).click();
      await dialog.getByLabel('Excerpt').fill('Written in the tunnel, sent after it.');
      await page
        .locator('#blog-image-file')
        .setInputFiles({ name: 'tunnel.png', mimeType: 'image/png', buffer: samplePng() });
      await dialog.getByRole('button', { name: 'Update Post' }).click();
      await expect(page.getByText(/You're offline\. Your change is saved on this device/)).toBeVisible();
      await expect(dialog).toHaveCount(0);
      await expect(entry).toContainText('Waiting to send');

      // meanwhile a colleague changes the excerpt too
      const other = await browser.newContext();
      try {
        const theirPage = await other.newPage();
        await signIn(theirPage, colleague, '/admin/blog');
        await theirPage.getByLabel('Search blog posts').fill(word);
        await theirPage
          .getByRole('listitem')
          .filter({ hasText: title })
          .getByRole('button', { name: `Edit “${title}”` })
          .click();
        const theirs = theirPage.getByRole('dialog', { name: 'Edit Blog Post' });
        await theirs.getByLabel('Excerpt').fill('Their excerpt, from the office.');
        await theirs.getByRole('button', { name: 'Update Post' }).click();
        await expect(theirs).toHaveCount(0);
      } finally {
        await other.close();
      }

      // back online: the dialog opens beside their change, with mine and my image kept
      await context.setOffline(false);
      const conflict = dialog.getByRole('alert').filter({ hasText: 'while you were editing' });
      await expect(conflict).toContainText(`${colleague.email} changed this at`, { timeout: 15_000 });
      await expect(conflict).toContainText('Their excerpt, from the office.');
      await expect(dialog.getByLabel('Excerpt')).toHaveValue('Written in the tunnel, sent after it.');
      await expect(dialog.getByText('Chosen file: tunnel.png')).toBeVisible();
      await expectNoAxeViolations(page, { include: ['dialog'] });
      await conflict.getByRole('button', { name: 'Keep my changes' }).click();
      await expect(page.getByText('Post Updated')).toBeVisible();
      await expect(waiting).toHaveCount(0);
      await expect(card).toContainText('Written in the tunnel, sent after it.');
      await expect(card.locator('img')).toHaveAttribute('src', /^\/media\/blog\/[0-9a-f-]{36}\.png\?w=960$/);
    } finally {
      await api.remove(post.blog_id);
    }
  });
});

test.describe('history', () => {
  const unique = () => Date.now().toString(36).replace(/\d/g, 'x');

  test('every save is kept: the History view shows what a version changed, word by word, and restores it', async ({
    page,
    request,
    baseURL,
  }) => {
    const word = `Palimpsest${unique()}`;
    const title = `${word} notes`;
    const api = await blogApi(request, baseURL!);
    const post = await api.create({
      title,
      excerpt: 'The first excerpt, about parchment.',
      content: '<p>Scraped and written again.</p>',
      status: 'Draft',
    });
    try {
      await signIn(page, OWNER, '/admin/blog');
      await page.getByLabel('Search blog posts').fill(word);
      const card = page.getByRole('listitem').filter({ hasText: title });
      const dialog = page.getByRole('dialog', { name: 'Edit Blog Post' });
      // two saves of the excerpt
      for (const excerpt of ['The second excerpt, about vellum.', 'The third excerpt, about ink.']) {
        await card.getByRole('button', { name: `Edit “${title}”` }).click();
        await dialog.getByLabel('Excerpt').fill(excerpt);
        await expect(dialog.getByRole('button', { name: 'History' })).toBeDisabled();
        await dialog.getByRole('button', { name: 'Update Post' }).click();
        await expect(dialog).toHaveCount(0);
      }
      await card.getByRole('button', { name: `Edit “${title}”` }).click();
      await dialog.getByRole('button', { name: 'History' }).click();
      const versions = dialog.getByRole('list', { name: 'Versions' }).getByRole('listitem');
      await expect(versions).toHaveCount(3);
      await expect(versions.first()).toContainText(`${OWNER.email} · current`);
      await expect(versions.first()).toContainText('Changed: Excerpt');
      await expect(versions.last()).toContainText('Created');
      await expectNoAxeViolations(page, { include: ['dialog'] });

      // the second version: what it changed, word by word
      await versions.nth(1).getByRole('button').click();
      await expect(dialog.getByRole('heading', { name: /^Version of .+ by / })).toBeFocused();
      await expect(dialog.locator('del')).toContainText(['first', 'parchment']);
      await expect(dialog.locator('ins')).toContainText(['second', 'vellum']);
      await expectNoAxeViolations(page, { include: ['dialog'] });
      await dialog.getByRole('button', { name: 'Restore this version' }).click();
      await expect(page.getByText(/The version of .+ is restored\./)).toBeVisible();
      await expect(dialog).toHaveCount(0);
      await expect(card).toContainText('The second excerpt, about vellum.');
      // the restore is itself a version, and the post stays a draft
      await card.getByRole('button', { name: `Edit “${title}”` }).click();
      await expect(dialog.getByLabel('Excerpt')).toHaveValue('The second excerpt, about vellum.');
      await expect(dialog.getByLabel('Publish immediately')).not.toBeChecked();
      await page.setViewportSize({ width: 390, height: 844 });
      await dialog.getByRole('button', { name: 'History' }).click();
      await expect(versions).toHaveCount(4);
      await expect(versions.first()).toContainText('Restored an earlier version');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await dialog.getByRole('button', { name: 'Back to editing' }).click();
      await expect(dialog.getByLabel('Excerpt')).toBeVisible();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await api.remove(post.blog_id);
    }
  });
});

test.describe('hostile content', () => {
  test('a thousand XSS payloads in titles, excerpts and content run no script on /blog, the permalinks or the admin', async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const payloads = xssPayloads(1000);
    expect(new Set(payloads).size).toBe(1000);
    const api = await blogApi(request, baseURL!);
    const posts: { blog_id: number; slug: string }[] = [];
    // ten posts of a hundred payloads: the first page of /blog shows them all (dated 2099, newest)
    for (let i = 0; i < 10; i++) {
      const mine = payloads.slice(i * 100, i * 100 + 100);
      let excerpt = '';
      for (const p of mine) if (Array.from(excerpt + p).length < 200) excerpt += p;
      posts.push(
        await api.create({
          title: Array.from(mine[0]).slice(0, 99).join('').trim() || `Payload ${i}`,
          excerpt: excerpt.trim() || `Payload ${i}`,
          content: `<p>Payload set ${i}</p>${mine.join('\n')}`,
          publication_date: 'December 31, 2099',
        }),
      );
    }
    const ran: number[] = [];
    const dialogs: string[] = [];
    await page.exposeFunction('__xssReport', (n: number) => ran.push(n));
    await page.addInitScript(() => {
      (window as unknown as { __xss: (n: number) => void }).__xss = (n) =>
        (window as unknown as { __xssReport: (n: number) => void }).__xssReport(n);
    });
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    try {
      await page.goto('/blog');
      await expect(cards(page)).toHaveCount(10);
      // show every post's full content
      const readMore = page.getByRole('button', { name: 'Read More' });
      while ((await readMore.count()) > 0) await readMore.first().click();
      const list = page.getByRole('list', { name: 'Blog posts' });
      for (let i = 0; i < 10; i++) await expect(list).toContainText(`Payload set ${i}`);
      // titles are shown as text, markup and all
      expect((await cards(page).locator('h2').allTextContents()).some((title) => title.includes('<'))).toBe(
        true,
      );

      for (const post of posts) {
        const res = await page.goto(`/blog/${post.slug}`);
        expect(res?.status()).toBe(200);
        await expect(page.getByText(/^Payload set \d+$/)).toBeVisible();
      }
      await signIn(page, OWNER, '/admin/blog');
      await expect(page.getByText(/^Showing 1-10 of \d+ posts$/)).toBeVisible();

      expect(ran, 'payloads that ran').toEqual([]);
      expect(dialogs, 'dialogs opened').toEqual([]);
    } finally {
      for (const post of posts) await api.remove(post.blog_id);
    }
  });
});

// The blog editor (docs/decisions/025-blog-publishing.md) in Chromium against the real server: schedule, preview and share,
// addresses, tags, authors, the text, and the list in the first HTML. In this file (not one of its
// own) so that no other file's posts come and go while blog.spec counts and orders its cards.

test.describe('the blog editor', () => {
  const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const pad = (n: number) => String(n).padStart(2, '0');
  /** A datetime-local value `days` from now at 09:30, in the browser's (and this machine's) time zone. */
  function localValue(days: number) {
    const at = new Date(Date.now() + days * 24 * 3600_000);
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T09:30`;
  }
  const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
  /** The owner opens a new post with its title and excerpt, and puts the cursor in its text. */
  async function newPost(page: Page, title: string, excerpt: string) {
    await signIn(page, OWNER, '/admin/blog');
    await page.getByRole('button', { name: 'New Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Blog Post' });
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Excerpt').fill(excerpt);
    const editor = page.locator('#blog-content-editor');
    await editor.click();
    return { dialog, editor };
  }
  /** Resolves once a `cancel` event fires in the page (a dismissed file picker's, say). */
  const nextCancel = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          document.addEventListener('cancel', (e) => resolve((e.target as Element).id), {
            capture: true,
            once: true,
          }),
        ),
    );

  test('a dismissed file picker leaves the editor as it was: no question, and typing goes on', async ({
    page,
  }) => {
    const { dialog } = await newPost(page, `Picker ${unique()}`, 'Chosen, then not.');
    // headless Chromium dismisses every file picker at once: the input's own `cancel`, as a
    // person's Escape in the picker or its Cancel button
    let cancelled = nextCancel(page);
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    expect(await cancelled).toBe('blog-image-file');
    await expect(page.getByText('Discard what you typed?')).toHaveCount(0);
    await dialog.getByLabel('Excerpt').press('End');
    await page.keyboard.type(' Still here.');
    await expect(dialog.getByLabel('Excerpt')).toHaveValue('Chosen, then not. Still here.');

    // the picker of an image in the text
    await page.locator('#blog-content-editor').click();
    await dialog.getByRole('button', { name: 'Image', exact: true }).click();
    const panel = dialog.getByRole('region', { name: 'Image in the text' });
    cancelled = nextCancel(page);
    await panel.getByLabel('Image file').click();
    expect(await cancelled).toBe('text-image-file');
    await expect(page.getByText('Discard what you typed?')).toHaveCount(0);
    await panel.getByLabel('Alt text').fill('Typed after the picker');
    await expect(panel.getByLabel('Alt text')).toHaveValue('Typed after the picker');

    // Escape on the dialog itself still asks before anything typed is lost
    await dialog.getByLabel('Excerpt').press('Escape');
    await expect(page.getByText('Discard what you typed?')).toBeVisible();
  });

  /** Gives the open post a cover, publishes it, and reads it back as the public API has it. */
  async function publishNewPost(page: Page, request: APIRequestContext, baseURL: string, word: string) {
    const dialog = page.getByRole('dialog', { name: 'Create New Blog Post' });
    await page.locator('#blog-image-url').fill(`${new URL(baseURL).origin}/og-image.png`);
    await dialog.getByLabel('Cover alt text').fill('The Manna logo');
    await dialog.getByLabel('Publish immediately').check();
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    await expect(page.getByText('Post Created')).toBeVisible();
    const [row] = (await (await request.get(`/api/bind-company-blog?search=${word}`)).json()) as {
      blog_id: number;
      slug: string;
      content: string;
    }[];
    return row;
  }

  test('a post scheduled in the editor waits as Scheduled, and one due goes public on time everywhere', async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const title = `Planned ${unique()}`;
    await signIn(page, OWNER, '/admin/blog');
    await page.getByRole('button', { name: 'New Post' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Blog Post' });
    await dialog.getByLabel('Title', { exact: true }).fill(title);
    await dialog.getByLabel('Excerpt').fill('Written on Monday, out on Thursday.');
    await page.locator('#blog-content-editor').click();
    await page.keyboard.type(
      'Plan the words before the week begins, and let the site publish them on the hour. ',
    );
    // the read time follows the text
    await expect(dialog.getByLabel('Read Time')).toHaveValue('1 min read');
    await page.locator('#blog-image-url').fill(`${new URL(baseURL!).origin}/og-image.png`);
    await dialog
      .getByLabel('Create Post')
      .click()
      .catch(() => undefined); // not a label: nothing happens
    await dialog.getByLabel('Or publish at').fill(localValue(3));
    // the publication date follows the chosen day
    const day = new Date(Date.now() + 3 * 24 * 3600_000);
    await expect(dialog.getByLabel('Publication Date')).toHaveValue(
      day.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' }),
    );
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    // no alt text for the cover: refused, with the focus on the field
    await expect(dialog.getByText('Describe the cover image for readers who cannot see it')).toBeVisible();
    await expect(dialog.getByLabel('Cover alt text')).toBeFocused();
    await page.keyboard.type('The Manna logo on a blue ground');
    await expectNoAxeViolations(page, { include: ['dialog'] });
    await dialog.getByRole('button', { name: 'Create Post' }).click();
    await expect(page.getByText('Post Created')).toBeVisible();

    const card = page.getByRole('listitem').filter({ hasText: title });
    await expect(card.getByRole('button', { name: /^Scheduled\./ })).toBeVisible();
    await expect(card.getByText(/^Goes live .+9:30 AM$/)).toBeVisible();
    await page.getByLabel('Show').selectOption('Scheduled');
    await expect(page.getByRole('listitem').filter({ hasText: title })).toBeVisible();
    await expect(page.getByRole('button', { name: /^(Published|Draft)\./ })).toHaveCount(0);
    await page.getByLabel('Show').selectOption('Draft');
    await expect(page.getByRole('listitem').filter({ hasText: title })).toHaveCount(0);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Show').selectOption('');
    expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page);
    // visitors see nothing of it
    const listed = (await (
      await request.get(`/api/bind-company-blog?search=${title.split(' ')[1]}`)
    ).json()) as unknown[];
    expect(listed).toEqual([]);

    // a post due in a few seconds (through the API: the editor's times are whole minutes)
    const api = await blogApi(request, baseURL!);
    const soonTitle = `Due soon ${unique()}`;
    const soon = await api.create({
      title: soonTitle,
      excerpt: 'Out in a moment.',
      content: '<p>On time.</p>',
      status: 'Scheduled',
      publish_at: new Date(Date.now() + 4000).toISOString(),
    });
    try {
      expect((await request.get(`/blog/${soon.slug}`)).status()).toBe(404);
      await expect
        .poll(async () => (await request.get(`/blog/${soon.slug}`)).status(), {
          timeout: 30_000,
          intervals: [1000],
        })
        .toBe(200);
      expect(await (await request.get('/blog/rss.xml')).text()).toContain(soonTitle);
      expect(await (await request.get('/sitemap-en.xml')).text()).toContain(`/blog/${soon.slug}</loc>`);
      await page.goto('/blog');
      await expect(page.getByRole('heading', { name: soonTitle })).toBeVisible();
    } finally {
      await api.remove(soon.blog_id);
      const mine = (await (
        await page.request.get(`/api/admin/blog-posts?search=${title.split(' ')[1]}`)
      ).json()) as {
        blog_id: number;
      }[];
      for (const row of mine) await api.remove(row.blog_id);
    }
  });

  test('Preview shows the unsaved post in the public layout at both widths; a share link opens it for a visitor, its address stays 404', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    const api = await blogApi(request, baseURL!);
    const title = `Preview ${unique()}`;
    const draft = await api.create({
      title,
      excerpt: 'Not out yet.',
      content: '<p>Draft words.</p>',
      status: 'Draft',
    });
    try {
      await signIn(page, OWNER, '/admin/blog');
      const card = page.getByRole('listitem').filter({ hasText: title });
      await card.getByRole('button', { name: `Edit “${title}”` }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Blog Post' });
      await dialog.getByLabel('Excerpt').fill('Changed, and not saved.');
      // the date from the calendar, written in the form's words and shown as readers will see it
      await dialog.getByLabel('Pick the date from a calendar').fill('2031-03-03');
      await expect(dialog.getByLabel('Publication Date')).toHaveValue('March 3, 2031');
      await expect(dialog.getByText('Readers see March 3, 2031')).toBeVisible();
      await dialog.getByRole('button', { name: 'Preview' }).click();
      const preview = page.getByRole('dialog', { name: 'Preview' });
      const frame = page.frameLocator('iframe[title="The post as readers will see it"]');
      await expect(frame.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(frame.getByText('Changed, and not saved.')).toBeVisible();
      await expect(frame.locator('time')).toHaveText('March 3, 2031');
      await expect(frame.getByRole('note')).toContainText('readers do not see this page');
      await expect(preview.getByRole('button', { name: 'Desktop' })).toHaveAttribute('aria-pressed', 'true');
      // Desktop lays the page out as a desktop does (scaled to the dialog): no phone menu
      await expect(preview.locator('iframe')).toHaveJSProperty('clientWidth', 1278);
      await expect(frame.locator('[aria-controls="mobile-menu"]')).toBeHidden();
      await preview.getByRole('button', { name: 'Phone' }).click();
      await expect(preview.locator('iframe')).toHaveJSProperty('clientWidth', 388);
      await expect(frame.locator('[aria-controls="mobile-menu"]')).toBeVisible();
      await expectNoAxeViolations(page, { include: ['dialog'] });
      await preview.getByRole('button', { name: 'Share preview' }).click();
      const link = await preview.getByLabel(/Anyone with this link can read the post until/).inputValue();
      expect(link).toMatch(/\/blog\/preview\/\d+_\d+\.\d+\.[\w-]+$/);

      // a visitor without an account: the link shows the draft, its address does not
      const visitor = await browser.newContext();
      try {
        const v = await visitor.newPage();
        const res = await v.goto(link);
        expect(res?.status()).toBe(200);
        expect(res?.headers()['x-robots-tag']).toBe('noindex, nofollow');
        await expect(v.getByRole('heading', { level: 1, name: title })).toBeVisible();
        await expect(v.getByText('Draft words.')).toBeVisible();
        await expect(v.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
        expect((await v.goto(`/blog/${draft.slug}`))?.status()).toBe(404);
        expect((await v.goto(link.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'))))?.status()).toBe(404);

        // the link leaked: revoking ends it (and every other made so far)
        await preview.getByRole('button', { name: 'Revoke share links' }).click();
        await expect(preview.getByRole('status')).toHaveText(
          'The share links made so far no longer work. A new one can be made.',
        );
        await expect(preview.getByLabel(/Anyone with this link/)).toHaveCount(0);
        expect((await v.goto(link))?.status()).toBe(404);
      } finally {
        await visitor.close();
      }
      await preview.getByRole('button', { name: 'Close preview' }).click();
      await expect(preview).toHaveCount(0);
      await expect(dialog.getByLabel('Excerpt')).toHaveValue('Changed, and not saved.');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await api.remove(draft.blog_id);
    }
  });

  test("a published post's address is edited: the old one answers 301; search and social fields reach its head", async ({
    page,
    request,
    baseURL,
  }) => {
    const api = await blogApi(request, baseURL!);
    const title = `Moving ${unique()}`;
    const post = await api.create({ title, excerpt: 'An excerpt.', content: '<p>Words.</p>' });
    const newSlug = `${post.slug}-moved`;
    try {
      await signIn(page, OWNER, '/admin/blog');
      await page.setViewportSize({ width: 390, height: 844 });
      const card = page.getByRole('listitem').filter({ hasText: title });
      await card.getByRole('button', { name: `Edit “${title}”` }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Blog Post' });
      await dialog.getByText('Search and social').click();
      const slug = dialog.getByLabel('Address', { exact: true });
      await slug.fill('');
      await slug.pressSequentially(newSlug);
      await dialog.getByLabel('Meta title').pressSequentially('A title for search engines');
      await dialog.getByLabel('Meta description').pressSequentially('What a search result says of the post.');
      await expect(dialog.getByText('26 of 60 characters')).toBeVisible();
      await dialog.getByLabel('Canonical address').fill('https://journal.example.org/first-home');
      await expect(dialog.getByText('A title for search engines').first()).toBeVisible();
      expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
      await expectNoAxeViolations(page, { include: ['dialog'] });
      await dialog.getByRole('button', { name: 'Update Post' }).click();
      await expect(page.getByText('Post Updated')).toBeVisible();

      const old = await request.get(`/blog/${post.slug}`, { maxRedirects: 0 });
      expect(old.status()).toBe(301);
      expect(old.headers().location).toBe(`/blog/${newSlug}`);
      await page.goto(`/blog/${post.slug}`);
      await expect(page).toHaveURL(new RegExp(`/blog/${newSlug}$`));
      await expect(page).toHaveTitle('A title for search engines');
      await expect(page.locator('meta[name="description"]')).toHaveAttribute(
        'content',
        'What a search result says of the post.',
      );
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
        'href',
        'https://journal.example.org/first-home',
      );
      await expect(page.getByRole('img', { name: 'A cover of the blog' })).toBeVisible();
    } finally {
      await api.remove(post.blog_id);
    }
  });

  test("tags typed in the editor show on the post and lead to the tag's own page, with its feed", async ({
    page,
    request,
    baseURL,
  }) => {
    const api = await blogApi(request, baseURL!);
    const word = unique();
    const title = `Tagged ${word}`;
    const other = await api.create({
      title: `Other ${word}`,
      excerpt: 'Another.',
      content: '<p>Words.</p>',
      tags: 'Field Notes',
    });
    const post = await api.create({ title, excerpt: 'Tags, typed.', content: '<p>Words.</p>' });
    try {
      await signIn(page, OWNER, '/admin/blog');
      const card = page.getByRole('listitem').filter({ hasText: title });
      await card.getByRole('button', { name: `Edit “${title}”` }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Blog Post' });
      const tags = dialog.getByLabel('Tags', { exact: true });
      // a tag in use is offered
      await expect(dialog.locator('#blog-tag-suggestions option[value="Field Notes"]')).toHaveCount(1);
      await tags.pressSequentially('Field Notes');
      await tags.press('Enter');
      await tags.pressSequentially('Reading rooms,');
      const chosen = dialog.getByRole('list', { name: 'Chosen tags' });
      await expect(chosen.getByRole('listitem')).toHaveText(['Field Notes×', 'Reading rooms×']);
      await tags.pressSequentially('Typo');
      await tags.press('Enter');
      await dialog.getByRole('button', { name: 'Remove the tag “Typo”' }).click();
      await expect(chosen.getByRole('listitem')).toHaveCount(2);
      await expectNoAxeViolations(page, { include: ['dialog'] });
      await dialog.getByRole('button', { name: 'Update Post' }).click();
      await expect(page.getByText('Post Updated')).toBeVisible();

      await page.goto(`/blog/${post.slug}`);
      const postTags = page.getByRole('list', { name: 'Tags' });
      await expect(postTags.getByRole('link')).toHaveText(['Field Notes', 'Reading rooms']);
      await postTags.getByRole('link', { name: 'Field Notes' }).click();
      await expect(page).toHaveURL(/\/blog\/tag\/field-notes$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Posts tagged “Field Notes”' })).toBeVisible();
      const listed = page.getByRole('list', { name: 'Blog posts' }).getByRole('heading', { level: 2 });
      await expect(listed.filter({ hasText: word })).toHaveCount(2);
      await expectNoAxeViolations(page);

      // the tag's page as a visitor's first load: rendered by the server, the same after hydration
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/blog/tag/reading-rooms');
      await expect(page).toHaveTitle('Posts tagged “Reading rooms” | Manna Blog');
      await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
      expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
      await expectNoAxeViolations(page);
      const feed = await request.get('/blog/tag/reading-rooms/rss.xml');
      expect(feed.status()).toBe(200);
      expect(await feed.text()).toContain(title);
      expect((await request.get('/blog/tag/no-such-tag')).status()).toBe(404);
    } finally {
      await api.remove(post.blog_id);
      await api.remove(other.blog_id);
    }
  });

  test('the text takes quotes, code and rules from the toolbar, and a paste from Google Docs keeps its structure only', async ({
    page,
    request,
    baseURL,
  }) => {
    const api = await blogApi(request, baseURL!);
    const word = unique();
    const title = `Blocks ${word}`;
    const { dialog, editor } = await newPost(page, title, 'Quotes, code and rules.');
    // a paste from Google Docs: its headings, lists, links and bold stay; fonts, colours and sizes go
    await editor.evaluate((el) => {
      const html =
        '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234"><h2 dir="ltr" style="line-height:1.38"><span style="font-size:16pt;font-family:Arial;color:#000000;font-weight:400">Pasted heading</span></h2>' +
        '<p dir="ltr"><span style="font-size:11pt;font-family:Arial;color:#ff0000;font-weight:700">Bold words</span><span style="font-size:11pt;font-family:Arial;font-weight:400"> and </span><a href="https://example.org/docs"><span style="color:#1155cc;text-decoration:underline;font-weight:400">a link</span></a></p>' +
        '<ul><li dir="ltr"><p dir="ltr"><span style="font-weight:400">First item</span></p></li><li dir="ltr"><p dir="ltr"><span style="font-weight:400">Second item</span></p></li></ul></b>';
      const data = new DataTransfer();
      data.setData('text/html', html);
      data.setData('text/plain', 'Pasted heading\nBold words and a link\nFirst item\nSecond item');
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect(editor.locator('h2')).toHaveText('Pasted heading');
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('A sentence before the quote.');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Quote' }).click();
    await page.keyboard.type('Archives are memory with an index.');
    // Enter on an empty line of the quote ends it
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Between.');
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Code block' }).click();
    await page.keyboard.type('grep -r "parish" notes/');
    await dialog.getByRole('button', { name: 'Horizontal rule' }).click();
    const row = await publishNewPost(page, request, baseURL!, word);
    try {
      expect(row.content).toContain(
        '<blockquote>Archives are memory with an index.</blockquote><p>Between.</p>',
      );
      expect(row.content).toMatch(/<pre>\s*grep -r "parish" notes\/\s*<\/pre><hr \/>(<p><\/p>)?$/);
      expect(row.content).toContain('<hr />');
      expect(row.content).toContain('<h2>Pasted heading</h2>');
      expect(row.content).toMatch(
        /<strong>Bold words<\/strong> and <a href="https:\/\/example.org\/docs"[^>]*>a link<\/a>/,
      );
      expect(row.content).toContain('<ul><li>First item</li><li>Second item</li></ul>');
      expect(row.content).not.toMatch(/style=|font-family|color:|docs-internal|dir=/);

      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/blog/${row.slug}`);
      const article = page.getByRole('article');
      await expect(article.locator('blockquote')).toHaveText('Archives are memory with an index.');
      await expect(article.locator('blockquote')).toHaveCSS('border-left-style', 'solid');
      await expect(article.locator('pre')).toHaveCSS('overflow-x', 'auto');
      await expect(article.locator('hr')).toHaveCount(1);
      expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
      await expectNoAxeViolations(page);
    } finally {
      await api.remove(row.blog_id);
    }
  });

  test('an image goes in the text with its alt text, stored at three widths; readers get srcset, never base64', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    const api = await blogApi(request, baseURL!);
    const word = unique();
    const title = `Pictures ${word}`;
    const { dialog, editor } = await newPost(page, title, 'A chart in the text.');
    await page.keyboard.type('Before the chart.');
    await page.keyboard.press('Enter');

    await dialog.getByRole('button', { name: 'Image', exact: true }).click();
    const panel = dialog.getByRole('region', { name: 'Image in the text' });
    await expect(panel.getByLabel('Image file')).toBeFocused();
    await panel.getByRole('button', { name: 'Insert image' }).click();
    await expect(panel.getByRole('alert')).toHaveText('Choose an image file.');
    await panel.getByLabel('Image file').setInputFiles({
      name: 'chart.png',
      mimeType: 'image/png',
      buffer: samplePng(1400, 700),
    });
    await panel.getByRole('button', { name: 'Insert image' }).click();
    await expect(panel.getByRole('alert')).toHaveText('Alt text is required: describe the image.');
    await expectNoAxeViolations(page, { include: ['dialog'] });
    await panel.getByLabel('Alt text').fill('Submissions per month');
    await panel.getByLabel('Alt text').press('Enter');
    await expect(panel).toHaveCount(0);
    const inEditor = editor.locator('img');
    await expect(inEditor).toHaveAttribute('alt', 'Submissions per month');
    await expect(inEditor).toHaveAttribute('srcset', /480w, \S+ 960w, \S+ 1400w$/);
    await page.keyboard.type('After the chart.');

    // a paste carrying another site's picture, or one inlined as data:, brings only its words
    await editor.evaluate((el) => {
      const data = new DataTransfer();
      data.setData(
        'text/html',
        '<p>Pasted words</p><img src="https://tracker.example/pixel.gif"><img src="data:image/png;base64,iVBORw0KGgo=">',
      );
      data.setData('text/plain', 'Pasted words');
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect(editor).toContainText('Pasted words');
    await expect(editor.locator('img')).toHaveCount(1);

    // a picture dropped on the text opens the panel with it; Escape closes the panel, not the dialog
    await editor.evaluate((el) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array([137, 80, 78, 71])], 'dropped.png', { type: 'image/png' }));
      const last = el.querySelector('p:last-of-type')!;
      last.scrollIntoView({ block: 'center' });
      const at = last.getBoundingClientRect();
      el.dispatchEvent(
        new DragEvent('drop', {
          dataTransfer: data,
          bubbles: true,
          cancelable: true,
          clientX: at.left + 4,
          clientY: at.top + at.height / 2,
        }),
      );
    });
    await expect(panel.getByText('Chosen file: dropped.png')).toBeVisible();
    await expect(panel.getByLabel('Alt text')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(dialog).toBeVisible();
    await expect(editor.locator('img')).toHaveCount(1);

    const row = await publishNewPost(page, request, baseURL!, word);
    try {
      expect(row.content).toMatch(
        /<p>Before the chart\.<\/p><p><img src="\/media\/blog\/[0-9a-f-]{36}\.webp" srcset="[^"]+ 480w, [^"]+ 960w, [^"]+ 1400w" sizes="[^"]+" width="1400" height="700" alt="Submissions per month" loading="lazy" decoding="async" \/><\/p><p>After the chart\.Pasted words<\/p>/,
      );
      expect(row.content).not.toMatch(/data:|tracker\.example|base64/);

      // a reader on a phone (a browser of their own: the editor's has the wider file in its cache)
      const reader = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await reader.newPage();
      await page.goto(`/blog/${row.slug}`);
      const image = page.getByRole('article').getByRole('img', { name: 'Submissions per month' });
      await image.scrollIntoViewIfNeeded();
      // a phone is given the narrow file, at the column's width, in its own proportions
      const narrow = row.content.match(/srcset="(\S+) 480w/)![1];
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => new URL(img.currentSrc).pathname))
        .toBe(narrow);
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
        .toBe(true);
      const box = (await image.boundingBox())!;
      expect(box.width).toBeLessThanOrEqual(390);
      expect(Math.round(box.width / box.height)).toBe(2);
      expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
      await expectNoAxeViolations(page);
      const file = await request.get(await image.evaluate((img: HTMLImageElement) => img.currentSrc));
      expect(file.headers()['content-type']).toBe('image/webp');
      // reached inside the app, the text is sanitised in the browser: the image stays, with its srcset
      await page.goto('/blog');
      await page.getByRole('link', { name: title }).first().click();
      await expect(
        page.getByRole('article').getByRole('img', { name: 'Submissions per month' }),
      ).toHaveAttribute('srcset', /480w, \S+ 960w, \S+ 1400w$/);
      await reader.close();
    } finally {
      await api.remove(row.blog_id);
    }
  });

  test('a writer chooses the name readers see; a post shows its author, chosen in the editor', async ({
    page,
    request,
    baseURL,
  }) => {
    const api = await blogApi(request, baseURL!);
    const title = `Authored ${unique()}`;
    const post = await api.create({ title, excerpt: 'Who wrote it.', content: '<p>Words.</p>' });
    try {
      await signIn(page, OWNER, '/admin/password');
      await page.setViewportSize({ width: 390, height: 844 });
      const name = page.getByLabel('Display name');
      await name.fill('');
      await name.pressSequentially('Asha Menon');
      await page.getByRole('button', { name: 'Save name' }).click();
      await expect(page.getByText('Your name on posts is saved.')).toBeVisible();
      expect(await fitsWidth(page)).toBeLessThanOrEqual(390);
      await expectNoAxeViolations(page);

      // a post made through the API by the owner is the owner's: readers see the name chosen
      await page.goto(`/blog/${post.slug}`);
      await expect(page.getByText('By Asha Menon')).toBeVisible();
      const ld = await page.locator('script[type="application/ld+json"]').first().textContent();
      expect(JSON.parse(ld!).author).toEqual({ '@type': 'Person', name: 'Asha Menon' });

      // the editor shows no author for this one
      await page.goto('/admin/blog');
      const card = page.getByRole('listitem').filter({ hasText: title });
      await card.getByRole('button', { name: `Edit “${title}”` }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Blog Post' });
      await expect(dialog.getByLabel('Author')).toHaveValue(/\d+/);
      await dialog.getByLabel('Author').selectOption('');
      await dialog.getByRole('button', { name: 'Update Post' }).click();
      await expect(page.getByText('Post Updated')).toBeVisible();
      await page.goto(`/blog/${post.slug}`);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.getByText('By Asha Menon')).toHaveCount(0);
    } finally {
      await api.remove(post.blog_id);
      // the owner shows no name again, as the other tests expect
      const origin = new URL(baseURL!).origin;
      await request.patch('/api/auth/profile', { headers: { origin }, data: { display_name: '' } });
    }
  });

  test('the blog is final at first paint: no layout shift on /blog, a tag page and a post, at both widths', async ({
    browser,
    request,
    baseURL,
  }) => {
    const api = await blogApi(request, baseURL!);
    const tagged = await api.create({
      title: `Shift ${unique()}`,
      excerpt: 'Steady.',
      content: '<p>Words.</p>',
      tags: 'Steady Layout',
    });
    try {
      for (const width of [390, 1280]) {
        for (const path of ['/blog', '/blog/tag/steady-layout', `/blog/${tagged.slug}`]) {
          const context = await browser.newContext({ viewport: { width, height: 844 } });
          const page = await context.newPage();
          await watchLayoutShifts(page);
          await page.goto(path, { waitUntil: 'networkidle' });
          await page.waitForTimeout(500);
          // what moved, so that a failure says where to look
          expect(await layoutShifts(page), `${path} at ${width} px`).toEqual([]);
          await context.close();
        }
      }
    } finally {
      await api.remove(tagged.blog_id);
    }
  });
});
