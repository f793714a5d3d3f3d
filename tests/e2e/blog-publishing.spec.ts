import type { Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations } from './fixtures';
import { blogApi, OWNER, signIn } from './admin-helpers';

// The blog editor of issue 31 in Chromium against the real server: schedule, preview and share,
// addresses, search and social fields. One database for the run: one test after another.
test.describe.configure({ mode: 'serial' });

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const pad = (n: number) => String(n).padStart(2, '0');
/** A datetime-local value `days` from now at 09:30, in the browser's (and this machine's) time zone. */
function localValue(days: number) {
  const at = new Date(Date.now() + days * 24 * 3600_000);
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T09:30`;
}
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

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
    expect(await (await request.get('/sitemap.xml')).text()).toContain(`/blog/${soon.slug}</loc>`);
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
    await preview.getByRole('button', { name: 'Phone' }).click();
    await expect(preview.locator('iframe')).toHaveJSProperty('clientWidth', 388);
    await expectNoAxeViolations(page, { include: ['dialog'] });
    await preview.getByRole('button', { name: 'Share preview' }).click();
    const link = await preview.getByLabel(/Anyone with this link can read the post until/).inputValue();
    expect(link).toMatch(/\/blog\/preview\/\d+\.\d+\.[\w-]+$/);
    await preview.getByRole('button', { name: 'Close preview' }).click();
    await expect(preview).toHaveCount(0);
    await expect(dialog.getByLabel('Excerpt')).toHaveValue('Changed, and not saved.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

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
    } finally {
      await visitor.close();
    }
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
  await signIn(page, OWNER, '/admin/blog');
  await page.getByRole('button', { name: 'New Post' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Blog Post' });
  await dialog.getByLabel('Title', { exact: true }).fill(title);
  await dialog.getByLabel('Excerpt').fill('Quotes, code and rules.');
  const editor = page.locator('#blog-content-editor');
  await editor.click();
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
  await page.locator('#blog-image-url').fill(`${new URL(baseURL!).origin}/og-image.png`);
  await dialog.getByLabel('Cover alt text').fill('The Manna logo');
  await dialog.getByLabel('Publish immediately').check();
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expect(page.getByText('Post Created')).toBeVisible();

  const [row] = (await (await request.get(`/api/bind-company-blog?search=${word}`)).json()) as {
    blog_id: number;
    slug: string;
    content: string;
  }[];
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
        await page.addInitScript(() => {
          (window as unknown as { __shift: number }).__shift = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & {
              value: number;
              hadRecentInput: boolean;
            })[])
              if (!entry.hadRecentInput) (window as unknown as { __shift: number }).__shift += entry.value;
          }).observe({ type: 'layout-shift', buffered: true });
        });
        await page.goto(path, { waitUntil: 'networkidle' });
        await page.waitForTimeout(500);
        const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
        expect(shift, `${path} at ${width} px`).toBe(0);
        await context.close();
      }
    }
  } finally {
    await api.remove(tagged.blog_id);
  }
});
