import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from '../lib/auth-testing';
import { createTestApp } from '../testing';

/** Who else is editing: heartbeats of open editors, told to colleagues, gone when closed or silent. */

let app: FastifyInstance;
let asha: { headers: Record<string, string>; email: string };
let ravi: { headers: Record<string, string>; email: string };
let recruiter: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp();
  asha = await signInAs(app, { permissions: ['blog.manage'] });
  ravi = await signInAs(app, { permissions: ['blog.manage'] });
  recruiter = (await signInAs(app, { permissions: ['jobs.manage'] })).headers;
});
afterAll(() => app.close());

const beat = (who: Record<string, string>, editorId: string, id = 7) =>
  app.inject({
    method: 'PUT',
    url: `/api/admin/presence/blog_post/${id}`,
    headers: who,
    payload: { editor_id: editorId },
  });

describe('who else is editing', () => {
  it('tells each open editor of the others, since when; a closed or silent one is gone', async () => {
    const first = await beat(asha.headers, 'editor-asha-1');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ others: [] });
    const second = await beat(ravi.headers, 'editor-ravi-1');
    expect(second.json().others).toEqual([{ email: asha.email, since: expect.any(String) }]);
    const since = second.json().others[0].since;
    // the same person in another tab is still one person, since the first; a renewal keeps when it
    // began; and nobody is ever told of themselves, in any tab
    await beat(asha.headers, 'editor-asha-2');
    const again = await beat(ravi.headers, 'editor-ravi-1');
    expect(again.json().others).toEqual([{ email: asha.email, since }]);
    expect((await beat(asha.headers, 'editor-asha-2')).json().others).toEqual([
      { email: ravi.email, since: expect.any(String) },
    ]);
    await beat(ravi.headers, 'editor-ravi-2');
    expect((await beat(ravi.headers, 'editor-ravi-2')).json().others).toEqual([{ email: asha.email, since }]);
    // another record: nobody
    expect((await beat(ravi.headers, 'editor-ravi-1', 8)).json().others).toEqual([]);

    // closing says goodbye
    const left = await app.inject({
      method: 'DELETE',
      url: '/api/admin/presence/blog_post/7/editor-asha-2',
      headers: asha.headers,
    });
    expect(left.statusCode).toBe(204);
    expect((await beat(ravi.headers, 'editor-ravi-1')).json().others).toHaveLength(1);
    // 35 seconds without a heartbeat (two beats missed): gone
    await app.db
      .updateTable('edit_presence')
      .set({ seen_at: new Date(Date.now() - 36_000).toISOString() })
      .where('editor_id', '=', 'editor-asha-1')
      .execute();
    expect((await beat(ravi.headers, 'editor-ravi-1')).json().others).toEqual([]);
  });

  it('needs the permission that edits the record, and a well-formed editor id', async () => {
    expect((await beat(recruiter, 'editor-recruiter')).statusCode).toBe(403);
    expect((await beat({ origin: asha.headers.origin }, 'editor-nobody')).statusCode).toBe(401);
    expect((await beat(asha.headers, 'x')).statusCode).toBe(400);
    expect((await beat(asha.headers, '../../etc')).statusCode).toBe(400);
    const job = await app.inject({
      method: 'PUT',
      url: '/api/admin/presence/job_opening/3',
      headers: recruiter,
      payload: { editor_id: 'editor-recruiter' },
    });
    expect(job.statusCode).toBe(200);
  });
});
