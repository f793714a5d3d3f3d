import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Pages rendered on request (blog permalinks, job pages) with a small stand-in build: a template, a Vite manifest, a pages manifest
 * and a server bundle whose render() echoes the post or opening it is given. The real bundle is
 * exercised by the end-to-end tests (tests/e2e/blog.spec.ts, careers.spec.ts).
 */
export async function fakeBuild(dir: string) {
  const write = async (file: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  };
  await write(
    'template.html',
    '<!doctype html>\n<html lang="en"><head><!--app-head--><link rel="stylesheet" crossorigin href="/assets/index.css"></head><body><div id="root"><!--app-html--></div><script type="module" crossorigin src="/assets/index.js"></script></body></html>',
  );
  await write(
    'client/.vite/manifest.json',
    JSON.stringify({
      'index.html': { file: 'assets/index.js', css: ['assets/index.css'], isEntry: true },
      'src/routes/blog-post.tsx': {
        file: 'assets/blog-post.js',
        css: ['assets/blog-post.css'],
        isDynamicEntry: true,
      },
      'src/routes/job.tsx': { file: 'assets/job.js', isDynamicEntry: true },
      'src/routes/search.tsx': { file: 'assets/search.js', isDynamicEntry: true },
    }),
  );
  await write('client/assets/index.css', 'body{margin:0}');
  await write('client/assets/blog-post.css', '.post{color:navy}');
  await write(
    'server/entry-server.js',
    `const esc = (s) => String(s).replace(/[&<>"']/g, (c) => '&#' + c.charCodeAt(0) + ';');
     export async function render(url, lang, data) {
       globalThis.__mannaRenders = (globalThis.__mannaRenders ?? 0) + 1;
       if ('jobOpening' in data) {
         const j = data.jobOpening;
         if (!j) return { status: 200, html: '<main><h1>This opening is no longer available</h1></main>', head: { title: 'This opening is no longer available', description: '', noindex: true } };
         return { status: 200, html: '<main class="job"><h1>' + esc(j.job_title) + '</h1><p>' + esc(j.description) + '</p></main>', head: { title: j.job_title + ' | Careers at Manna', description: j.location, path: url, jsonLd: [{ '@type': 'JobPosting', title: j.job_title, url: '%PUBLIC_URL%' + url }] } };
       }
       if ('pricingRows' in data) {
         return { status: 200, html: '<main class="pricing"><h1>Pricing</h1><ul>' + data.pricingRows.map((r) => '<li>' + esc(r.plan_name) + ' ' + esc(r.price) + '</li>').join('') + '</ul></main>', head: { title: 'Pricing', description: 'Plans', path: url } };
       }
       if ('siteSearch' in data) {
         const a = data.siteSearch;
         return { status: 200, html: '<main class="search" data-lang="' + lang + '"><h1>Search</h1><ul>' + a.groups.flatMap((g) => g.results).map((r) => '<li><a href="' + esc(r.url) + '">' + esc(r.title) + '</a></li>').join('') + '</ul></main>', head: { title: 'Search', description: '', path: '/search', noindex: true } };
       }
       if ('jobRows' in data) {
         return { status: 200, html: '<main class="careers"><h1>Careers</h1><ul>' + data.jobRows.map((j) => '<li>' + esc(j.job_title) + '</li>').join('') + '</ul></main>', head: { title: 'Careers', description: 'Openings', path: url } };
       }
       const p = data.blogPost;
       if (!p) return { status: 200, html: '<main><h1>Blog post not found</h1></main>', head: { title: 'Blog post not found', description: '', noindex: true } };
       return {
         status: 200,
         html: '<main class="post" data-lang="' + lang + '"><h1>' + esc(p.title) + '</h1><div>' + p.content + '</div><p>' + esc(p.image_url) + '</p></main>',
         head: { title: p.title + ' | Manna Blog', description: p.excerpt, path: url, type: 'article', image: p.image_url, jsonLd: [{ headline: p.title, url: '%PUBLIC_URL%' + url }] },
       };
     }`,
  );
  await write(
    'pages/manifest.json',
    JSON.stringify({
      routes: { '/blog': 'blog', '/careers': 'careers', '/pricing': 'pricing', '/search': 'search' },
      languages: ['en', 'ml'],
      noindex: ['/search'],
      notFound: '404',
      shell: 'shell.html',
    }),
  );
  for (const lang of ['en', 'ml']) {
    await write(
      `pages/${lang}/404.html`,
      `<!doctype html><html lang="${lang}"><title>404</title><h1>Oops! Page not found</h1></html>`,
    );
    await write(`pages/${lang}/blog.html`, `<!doctype html><html lang="${lang}"><title>Blog</title></html>`);
    await write(
      `pages/${lang}/pricing.html`,
      `<!doctype html><html lang="${lang}"><title>Pricing</title></html>`,
    );
    await write(
      `pages/${lang}/search.html`,
      `<!doctype html><html lang="${lang}"><title>Search</title><main><h1>Search</h1></main></html>`,
    );
    await write(
      `pages/${lang}/careers.html`,
      `<!doctype html><html lang="${lang}"><title>Careers</title></html>`,
    );
  }
  await write('pages/shell.html', '<!doctype html><title>Admin</title>');
}

/**
 * Asks each page rendered on request every way a browser does (GET, HEAD, revalidation with its
 * ETag) and fails when the server answered any of them twice: `logged` holds what the app logged
 * at warn and above (createTestApp's log stream).
 */
export async function expectAnsweredOnce(app: FastifyInstance, logged: string[], urls: string[]) {
  logged.length = 0;
  for (const url of urls) {
    const first = await app.inject(url);
    expect(first.statusCode, url).toBe(200);
    expect((await app.inject({ url, method: 'HEAD' })).statusCode, url).toBe(200);
    const again = await app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode, url).toBe(304);
  }
  expect(logged.filter((l) => l.includes('already sent'))).toEqual([]);
}
