// Realistic content for the Lighthouse bench (`--realistic`): what a site holds after a year, put
// in through the real API as the back office would, on the bench's throw-away server.
//
//   20 openings of mixed length (rich text: paragraphs and lists), 10 blog posts of mixed length
//   with their own covers (uploaded PNGs), one of them with three images in its text (uploaded
//   through POST /api/admin/blog-images), all tagged "Field notes".
//
// The owner comes from ADMIN_EMAIL / ADMIN_PASSWORD (REALISTIC_OWNER below, given to the server);
// a new install asks owners for a second factor, so the bench turns that rule off in its own
// throw-away database first (never on a real site).
import path from 'node:path';
import Database from 'better-sqlite3';
import sharp from 'sharp';

export const REALISTIC_OWNER = {
  email: 'owner@bench.example',
  password: 'bench owner passphrase, throw-away',
};
export const REALISTIC_TAG = 'field-notes';

const WORDS =
  'manuscript editor journal review proof reader copy style issue volume archive index citation figure table author peer board decision revision submission deadline schedule layout metadata abstract keyword'.split(
    ' ',
  );
/** A sentence of `n` words, the same for the same seed (runs compare like with like). */
function sentence(seed, n) {
  const words = Array.from({ length: n }, (_, i) => WORDS[(seed * 7 + i * 13) % WORDS.length]);
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}
const paragraph = (seed, sentences) =>
  `<p>${Array.from({ length: sentences }, (_, i) => sentence(seed + i, 8 + ((seed + i) % 9))).join(' ')}</p>`;
const list = (seed, items) =>
  `<ul>${Array.from({ length: items }, (_, i) => `<li>${sentence(seed + i, 5 + ((seed + i) % 7))}</li>`).join('')}</ul>`;

async function png(width, height, hue) {
  const background = { r: 40 + ((hue * 37) % 180), g: 80 + ((hue * 53) % 140), b: 120 + ((hue * 29) % 120) };
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

export async function seedRealistic({ origin, dataDir }) {
  const db = new Database(path.join(dataDir, 'manna.sqlite'));
  db.prepare('update admin_role set requires_second_factor = 0').run();
  db.close();

  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json' },
    body: JSON.stringify(REALISTIC_OWNER),
  });
  if (!login.ok) throw new Error(`realistic content: sign-in answered ${login.status} ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const headers = { origin, cookie, 'x-manna-csrf': '1' };
  const call = async (url, init) => {
    const res = await fetch(`${origin}${url}`, { ...init, headers: { ...headers, ...init.headers } });
    if (!res.ok) throw new Error(`realistic content: ${url} answered ${res.status} ${await res.text()}`);
    return res.json();
  };

  // 20 openings, short to long
  const types = await (await fetch(`${origin}/api/bind-job-types`)).json();
  for (let i = 0; i < 20; i++) {
    await call('/api/manage-job-openings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        mode: 1,
        job_id: 0,
        status: 'Open',
        job_title: `${['Copy Editor', 'Production Editor', 'Managing Editor', 'Data Engineer', 'Support Lead'][i % 5]} ${i + 1}`,
        department: ['Editorial', 'Production', 'Engineering', 'Customer Success'][i % 4],
        location: i % 3 === 0 ? 'Remote, EU' : 'Kochi, India',
        job_type_id: types[i % types.length].job_type_id,
        description: Array.from({ length: 1 + (i % 4) }, (_, k) => paragraph(i * 10 + k, 2 + (i % 3))).join(
          '',
        ),
        requirement: list(i * 3, 2 + (i % 7)),
        about_role: paragraph(i * 5, 1 + (i % 4)),
        responsibility: list(i * 11, 3 + (i % 6)),
      }),
    });
  }

  // three images for one post's text
  const textImages = [];
  for (let k = 0; k < 3; k++) {
    const form = new FormData();
    form.append(
      'image',
      new Blob([await png(1600, 900, k + 20)], { type: 'image/png' }),
      `figure-${k + 1}.png`,
    );
    textImages.push(await call('/api/admin/blog-images', { method: 'POST', body: form }));
  }

  // 10 posts, short to long, each with its own cover; the newest has the images in its text
  let withImages;
  for (let i = 0; i < 10; i++) {
    const paragraphs = [1, 3, 8, 2, 12, 4, 6, 2, 10, 5][i];
    let content = Array.from({ length: paragraphs }, (_, k) => paragraph(i * 20 + k, 3 + (k % 4))).join('');
    if (i === 9) {
      content = textImages
        .map(
          (img, k) =>
            `${paragraph(k * 3, 4)}<p><img src="${img.src}" srcset="${img.srcset}" width="${img.width}" height="${img.height}" alt="Figure ${k + 1}: submissions per month"></p>`,
        )
        .join('');
    }
    const form = new FormData();
    const day = new Date(Date.now() - (10 - i) * 86_400_000);
    const fields = {
      mode: '1',
      company_id: '2',
      blog_id: '0',
      title: `${['Field notes', 'What editors ask', 'A year of proofs', 'Indexing by hand'][i % 4]}: part ${i + 1}`,
      excerpt: sentence(i * 4, 10 + (i % 3) * 8),
      content,
      publication_date: day.toLocaleDateString('en-US', {
        month: 'long',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      }),
      read_time: `${1 + Math.floor(paragraphs / 3)} min read`,
      featured_image_url: '',
      cover_alt: `Cover of part ${i + 1}`,
      status: 'Published',
      tags: 'Field notes',
    };
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append(
      'featured_image',
      new Blob([await png(1200, 630, i)], { type: 'image/png' }),
      `cover-${i + 1}.png`,
    );
    const { row } = await call('/api/manage-company-blog', { method: 'POST', body: form });
    if (i === 9) withImages = row.slug;
  }
  return { postWithImages: `/blog/${withImages}`, tagPage: `/blog/tag/${REALISTIC_TAG}` };
}
