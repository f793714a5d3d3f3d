// @vitest-environment node
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../database';
import { migrateToLatest } from '../migrate';
import type { Database } from '../schema';
import { repairSpaces, up } from './1100-ordinary-spaces';

const NBSP = '\u00a0';
const glued = (text: string) => `<p>${text.split(' ').join(NBSP)}</p>`;

describe('repairSpaces', () => {
  it('turns the editor’s glued paragraphs back into words', () => {
    expect(repairSpaces(glued('We came to really help managing editors'))).toBe(
      '<p>We came to really help managing editors</p>',
    );
  });

  it('keeps a few non-breaking spaces typed on purpose among ordinary ones', () => {
    const text = `<p>The office is 10${NBSP}km from the station and opens at 9${NBSP}am every day.</p>`;
    expect(repairSpaces(text)).toBe(text);
    expect(repairSpaces('<p>plain words only</p>')).toBe('<p>plain words only</p>');
  });
});

describe('migration 1100 on a database that holds glued text', () => {
  let dir: string;
  let db: Kysely<Database>;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manna-1100-'));
    db = createDatabase({ dialect: 'sqlite', file: path.join(dir, 'manna.sqlite') });
    await migrateToLatest(db);
  });
  afterEach(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('repairs blog posts and every rich field of an opening, and leaves deliberate spaces and dates alone', async () => {
    const at = '2026-01-01T00:00:00.000Z';
    const post = await db
      .insertInto('blog_post')
      .values({
        company_id: 2,
        title: 'Glued',
        slug: 'glued',
        excerpt: 'x',
        content: glued('A long paragraph typed in the editor'),
        search_text: '',
        publication_date: 'January 1, 2026',
        publication_day: '2026-01-01',
        read_time: '1 min read',
        featured_image_url: '',
        status: 'Published',
        created_at: at,
        updated_at: at,
      })
      .returning('blog_id')
      .executeTakeFirstOrThrow();
    const kept = `<p>Ten${NBSP}km of road and many ordinary words here</p>`;
    const { job_type_id: typeId } = await db
      .insertInto('job_type')
      .values({ job_type_name: 'Full-time', created_at: at } as never)
      .returning('job_type_id')
      .executeTakeFirstOrThrow();
    const job = await db
      .insertInto('job_opening')
      .values({
        job_title: 'Copy Editor',
        department: 'Editorial',
        location: 'Kochi',
        job_type_id: typeId,
        description: glued('Edit the manuscripts of our journals'),
        requirement: kept,
        about_role: glued('You will work with editors'),
        responsibility: glued('Check every reference'),
        search_text: '',
        created_at: at,
        updated_at: at,
      })
      .returning('job_id')
      .executeTakeFirstOrThrow();

    await up(db);

    const p = await db
      .selectFrom('blog_post')
      .selectAll()
      .where('blog_id', '=', post.blog_id)
      .executeTakeFirstOrThrow();
    expect(p.content).toBe('<p>A long paragraph typed in the editor</p>');
    expect(p.updated_at).toBe(at);
    const j = await db
      .selectFrom('job_opening')
      .selectAll()
      .where('job_id', '=', job.job_id)
      .executeTakeFirstOrThrow();
    expect(j.description).toBe('<p>Edit the manuscripts of our journals</p>');
    expect(j.about_role).toBe('<p>You will work with editors</p>');
    expect(j.responsibility).toBe('<p>Check every reference</p>');
    expect(j.requirement).toBe(kept);
  });
});
