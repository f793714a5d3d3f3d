import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobErrorMessage, type JobFormField } from '../../contract/jobs-admin';
import { ensureJobType } from '../db/jobs.repo';
import { signInAs } from '../lib/auth-testing';
import { addApplication } from '../db/application-list.testing';
import { createTestApp } from '../testing';

describe('POST /api/manage-job-openings', () => {
  let app: FastifyInstance;
  let headers: Record<string, string>;
  let fullTime: number;
  beforeEach(async () => {
    app = await createTestApp();
    ({ headers } = await signInAs(app, { role: 'recruiter' }));
    fullTime = (await ensureJobType(app.db, 'Full-time')).job_type_id;
  });
  afterEach(() => app.close());

  const valid = () => ({
    job_title: 'Senior Copy Editor (STEM)',
    department: 'Editorial & Production',
    location: 'Kochi, India',
    job_type_id: fullTime,
    work_type: 'onsite',
    country: 'IN',
    locality: 'Kochi',
    description: '<p>Edit manuscripts for clarity.</p>',
    requirement: '<ul><li>Three years of editing</li></ul>',
    about_role: '<p>You will work with journal editors.</p>',
    responsibility: '<ol><li data-list="bullet">Copy edit accepted papers</li></ol>',
  });
  const send = (payload: unknown, version?: number) =>
    app.inject({
      method: 'POST',
      url: '/api/manage-job-openings',
      headers: version === undefined ? headers : { ...headers, 'if-match': `"${version}"` },
      payload: payload as object,
    });

  it('creates, updates and deletes, answering { message, row } and recording each change', async () => {
    const created = await send({ mode: 1, job_id: 0, ...valid() });
    expect(created.statusCode).toBe(200);
    const { message, row } = created.json();
    // a new opening is a draft until someone publishes it: not on the public list
    expect(message).toBe('Job created as a draft: publish it when it is ready');
    expect(row).toMatchObject({
      job_title: 'Senior Copy Editor (STEM)',
      job_type_name: 'Full-time',
      status: 'Draft',
    });
    expect((await app.inject('/api/bind-job-openings')).json()).toEqual([]);
    expect(row.job_id).toBeGreaterThan(0);

    expect(row.version).toBe(1);
    const updated = await send({ mode: 2, job_id: row.job_id, ...valid(), location: 'Remote' }, 1);
    expect(updated.json()).toMatchObject({
      message: 'Job updated successfully',
      row: { job_id: row.job_id, location: 'Remote' },
    });

    // published: on the public list
    const published = await app.inject({
      method: 'PATCH',
      url: `/api/admin/job-openings/${row.job_id}`,
      headers: { ...headers, 'if-match': '"2"' },
      payload: { status: 'Open' },
    });
    expect(published.json().row.status).toBe('Open');
    const listed = await app.inject({ url: '/api/bind-job-openings?jobid=0&search=&pagenum=1&pagesize=20' });
    expect(listed.json().map((r: { location: string }) => r.location)).toEqual(['Remote']);

    const deleted = await send({ mode: 3, job_id: row.job_id });
    expect(deleted.json()).toMatchObject({
      message: 'Job deleted successfully',
      row: { job_id: row.job_id },
    });
    expect((await app.inject({ url: '/api/bind-job-openings' })).json()).toEqual([]);

    const audit = await app.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity', '=', 'job_opening')
      .orderBy('audit_id')
      .execute();
    expect(audit.map((a) => [a.action, a.entity, a.entity_id])).toEqual([
      ['create', 'job_opening', String(row.job_id)],
      ['update', 'job_opening', String(row.job_id)],
      ['status', 'job_opening', String(row.job_id)],
      ['delete', 'job_opening', String(row.job_id)],
    ]);
    expect(audit[1].actor_email).toMatch(/@example\.test$/);
    expect(JSON.parse(audit[1].detail!).changed).toEqual(['location']);
  });

  it('sanitises the rich text: scripts, handlers and javascript: links are removed', async () => {
    const res = await send({
      mode: 1,
      ...valid(),
      description:
        '<p onclick="alert(1)">Edit manuscripts <img src=x onerror=alert(1)><script>alert(1)</script></p>',
      about_role:
        '<p>Read <a href="javascript:alert(1)">this</a> and <a href="https://example.com">that</a> today</p>',
    });
    const row = res.json().row;
    expect(row.description).toBe('<p>Edit manuscripts </p>');
    expect(row.about_role).not.toContain('javascript');
    expect(row.about_role).toContain('href="https://example.com"');
  });

  it('keeps where an opening is: on site and hybrid name a country and city, remote may name neither', async () => {
    const remote = await send({ mode: 1, ...valid(), work_type: 'remote', country: '', locality: '' });
    expect(remote.statusCode).toBe(200);
    expect(remote.json().row).toMatchObject({ work_type: 'remote', country: '', locality: '' });
    const hybrid = await send({
      mode: 1,
      ...valid(),
      location: 'Germany (hybrid)',
      work_type: 'hybrid',
      country: 'DE',
      locality: 'Berlin',
    });
    expect(hybrid.json().row).toMatchObject({
      location: 'Germany (hybrid)',
      work_type: 'hybrid',
      country: 'DE',
      locality: 'Berlin',
    });
    // a client of the spec's form names no place: the opening is on site, its place left for staff
    const { work_type: _w, country: _c, locality: _l, ...spec } = valid();
    const plain = await send({ mode: 1, ...spec });
    expect(plain.statusCode).toBe(200);
    expect(plain.json().row).toMatchObject({ work_type: 'onsite', country: '', locality: '' });
    // and its changes of other fields keep it so; naming a place checks the whole place
    const id = plain.json().row.job_id;
    expect((await send({ mode: 2, job_id: id, department: 'Production' }, 1)).statusCode).toBe(200);
    const half = await send({ mode: 2, job_id: id, locality: 'Kochi' }, 2);
    expect(half.json().codes).toEqual({ country: 'countryRequired' });
  });

  it.each([
    [{ job_title: '' }, 'Job Title is required.', 'job_title'],
    [{ job_title: 'A' }, 'Job title must be at least 2 characters long.', 'job_title'],
    [{ job_title: 'x'.repeat(201) }, 'Job title must not exceed 200 characters.', 'job_title'],
    [{ job_title: 'Editor <b>' }, "Job title cannot contain '<'.", 'job_title'],
    [{ department: '' }, 'Department is required.', 'department'],
    [{ department: 'Team\u0000 42' }, 'Department cannot contain U+0000.', 'department'],
    [{ location: 'Kochi \u202Eala' }, 'Location cannot contain U+202E.', 'location'],
    [{ job_type_id: 0 }, 'Please select a job type.', 'job_type_id'],
    [{ work_type: 'office' }, 'Please select a work type.', 'work_type'],
    [{ country: '' }, 'Please select a country.', 'country'],
    [{ country: 'Germany' }, 'Please select a country.', 'country'],
    [{ country: 'de' }, 'Please select a country.', 'country'],
    [{ work_type: 'hybrid', locality: ' ' }, 'City or Region is required.', 'locality'],
    [{ locality: 'Kochi <b>' }, "City or region cannot contain '<'.", 'locality'],
    [{ job_type_id: 9999 }, 'Please select a job type.', 'job_type_id'],
    [{ description: '<p><br></p>' }, 'Description is required.', 'description'],
    [{ requirement: '<p>short</p>' }, 'Requirement must be at least 10 characters long.', 'requirement'],
    [{ about_role: '' }, 'About the Role is required.', 'about_role'],
    [
      { responsibility: '<ul><li>tiny</li></ul>' },
      'Responsibility must be at least 10 characters long.',
      'responsibility',
    ],
  ])('refuses %o with "%s"', async (change, message, field) => {
    const res = await send({ mode: 1, ...valid(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.json().errors[field]).toBe(message);
    // the code the translated dialog shows its own text for
    const code = res.json().codes[field];
    expect(
      jobErrorMessage(
        field as JobFormField,
        code,
        String(({ ...valid(), ...change } as Record<string, unknown>)[field]),
      ),
    ).toBe(message);
    expect(await app.db.selectFrom('job_opening').selectAll().execute()).toEqual([]);
  });

  it('saves titles and places as people write them', async () => {
    const res = await send({
      mode: 1,
      ...valid(),
      job_title: 'C# Developer: Search + Indexing',
      department: 'Team 2 – Production',
      location: "Côte d'Ivoire or anywhere (UTC-5 to UTC+5:30)",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().row).toMatchObject({
      job_title: 'C# Developer: Search + Indexing',
      department: 'Team 2 – Production',
      location: "Côte d'Ivoire or anywhere (UTC-5 to UTC+5:30)",
    });
  });

  it('answers 404 for an update or delete of a missing opening, and 400 for an unknown mode', async () => {
    expect((await send({ mode: 2, job_id: 12345, ...valid() }, 1)).statusCode).toBe(404);
    expect((await send({ mode: 3, job_id: 12345 })).statusCode).toBe(404);
    expect((await send({ mode: 4, job_id: 1 })).statusCode).toBe(400);
  });

  describe('versions (a change is based on the version it read)', () => {
    const create = async () => (await send({ mode: 1, job_id: 0, ...valid() })).json().row;

    it('refuses a change that does not say its version (428) and changes nothing', async () => {
      const row = await create();
      const answer = await send({ mode: 2, job_id: row.job_id, location: 'Remote' });
      expect(answer.statusCode).toBe(428);
      expect(answer.json().message).toMatch(/If-Match/);
      expect((await send({ mode: 2, job_id: row.job_id, location: 'Remote' }, 0)).statusCode).toBe(428);
      const [stored] = await app.db.selectFrom('job_opening').selectAll().execute();
      expect(stored).toMatchObject({ location: 'Kochi, India', version: 1 });
    });

    it('changes only the fields sent, and counts the version on', async () => {
      const row = await create();
      const answer = await send({ mode: 2, job_id: row.job_id, location: 'Remote' }, 1);
      const audit = await app.db
        .selectFrom('audit_log')
        .select('detail')
        .where('action', '=', 'update')
        .executeTakeFirstOrThrow();
      // the Activity log shows the old and new value of what changed
      expect(JSON.parse(audit.detail!)).toMatchObject({
        changed: ['location'],
        values: { location: ['Kochi, India', 'Remote'] },
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.json().row).toMatchObject({ ...valid(), location: 'Remote', version: 2 });
      // the version as an ETag too; a list has none (each row says its own)
      expect(answer.headers.etag).toBe('"2"');
      expect((await app.inject({ url: '/api/admin/job-openings', headers })).headers.etag).toBeUndefined();
      const dept = await send({ mode: 2, job_id: row.job_id, department: 'Production' }, 2);
      expect(dept.json().row).toMatchObject({ location: 'Remote', department: 'Production', version: 3 });
    });

    it('writes nothing for a save that changes nothing: no new version, no audit row', async () => {
      const row = await create();
      const same = await send({ mode: 2, job_id: row.job_id, location: 'Kochi, India' }, 1);
      expect(same.statusCode).toBe(200);
      expect(same.json().row.version).toBe(1);
      const updates = await app.db
        .selectFrom('audit_log')
        .select('action')
        .where('action', '=', 'update')
        .execute();
      expect(updates).toEqual([]);
    });

    it('refuses a stale change with 409, the opening as it is now and who changed it when', async () => {
      const row = await create();
      await send({ mode: 2, job_id: row.job_id, location: 'Remote' }, 1);
      const late = await send({ mode: 2, job_id: row.job_id, department: 'Production' }, 1);
      expect(late.statusCode).toBe(409);
      expect(late.headers.etag).toBe('"2"');
      const body = late.json();
      expect(body.current).toMatchObject({
        location: 'Remote',
        department: 'Editorial & Production',
        version: 2,
      });
      expect(body.changed_by).toMatch(/@/);
      expect(Date.parse(body.changed_at)).toBeGreaterThan(0);
      const [stored] = await app.db.selectFrom('job_opening').selectAll().execute();
      expect(stored).toMatchObject({ department: 'Editorial & Production', version: 2 });
    });

    it('of two saves of the same version at once, one wins and one gets 409; one update is recorded', async () => {
      const row = await create();
      const answers = await Promise.all([
        send({ mode: 2, job_id: row.job_id, location: 'Remote' }, 1),
        send({ mode: 2, job_id: row.job_id, department: 'Production' }, 1),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      const updates = await app.db
        .selectFrom('audit_log')
        .selectAll()
        .where('entity', '=', 'job_opening')
        .where('action', '=', 'update')
        .execute();
      expect(updates).toHaveLength(1);
      const [stored] = await app.db.selectFrom('job_opening').selectAll().execute();
      expect(stored.version).toBe(2);
    });
  });

  describe('a change sent again from the send queue (Idempotency-Key)', () => {
    const again = (payload: object, key: string, version?: number, as = headers) =>
      app.inject({
        method: 'POST',
        url: '/api/manage-job-openings',
        headers: {
          ...as,
          'idempotency-key': key,
          ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
        },
        payload,
      });

    it('stores an update sent twice once: the repeat gets the first answer, not a conflict with itself', async () => {
      const row = (await send({ mode: 1, job_id: 0, ...valid() })).json().row;
      const change = { mode: 2, job_id: row.job_id, location: 'Remote' };
      const first = await again(change, 'edit-key-0001', 1);
      const repeat = await again(change, 'edit-key-0001', 1);
      expect(first.statusCode).toBe(200);
      expect(repeat.statusCode).toBe(200);
      expect(repeat.json()).toEqual(first.json());
      const [stored] = await app.db.selectFrom('job_opening').selectAll().execute();
      expect(stored).toMatchObject({ location: 'Remote', version: 2 });
      const revisions = await app.db.selectFrom('record_revision').select('version').execute();
      expect(revisions.map((r) => r.version).sort()).toEqual([1, 2]);
    });

    it("waits (409) while someone else is signed in on the device, and goes through under its author's session", async () => {
      const row = (await send({ mode: 1, job_id: 0, ...valid() })).json().row;
      const author = await signInAs(app, { role: 'recruiter' });
      const change = { mode: 2, job_id: row.job_id, location: 'Remote' };
      const asAuthor = { 'x-manna-acting-user': String(author.userId) };
      // the device's session is someone else's now: the change is not theirs to make
      const refused = await again(change, 'acting-key-01', 1, { ...headers, ...asAuthor });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().current).toBeUndefined();
      const [unchanged] = await app.db.selectFrom('job_opening').selectAll().execute();
      expect(unchanged).toMatchObject({ location: 'Kochi, India', version: 1 });
      const sent = await again(change, 'acting-key-01', 1, { ...author.headers, ...asAuthor });
      expect(sent.statusCode).toBe(200);
      const audit = await app.db
        .selectFrom('audit_log')
        .select('actor_email')
        .where('action', '=', 'update')
        .executeTakeFirstOrThrow();
      expect(audit.actor_email).toBe(author.email);
    });

    it('creates one opening for a create sent twice at once', async () => {
      const body = { mode: 1, job_id: 0, ...valid() };
      const answers = await Promise.all([again(body, 'create-key-01'), again(body, 'create-key-01')]);
      // the second is either the first answer or "already being processed" (sent again later)
      expect(answers.map((a) => a.statusCode)).toContain(200);
      for (const a of answers) expect([200, 409]).toContain(a.statusCode);
      expect(await app.db.selectFrom('job_opening').select('job_id').execute()).toHaveLength(1);
    });

    it('keeps a stale change a conflict however often it is sent, and one person cannot replay the key of another', async () => {
      const row = (await send({ mode: 1, job_id: 0, ...valid() })).json().row;
      await send({ mode: 2, job_id: row.job_id, location: 'Remote' }, 1);
      const stale = { mode: 2, job_id: row.job_id, department: 'Production' };
      expect((await again(stale, 'stale-key-001', 1)).statusCode).toBe(409);
      // a refused change is not remembered: sent again on the version it now names, it goes through
      const fixed = await again(stale, 'stale-key-001', 2);
      expect(fixed.statusCode).toBe(200);
      expect(fixed.json().row).toMatchObject({ location: 'Remote', department: 'Production', version: 3 });

      const other = await signInAs(app, { role: 'recruiter' });
      const theirs = await again(stale, 'stale-key-001', 3, other.headers);
      expect(theirs.statusCode).toBe(200);
      // not the first person's stored answer: their own request ran (and changed nothing new)
      expect(theirs.json().row.version).toBe(3);
      const replay = await again({ mode: 2, job_id: row.job_id, location: 'Elsewhere' }, 'stale-key-001', 3);
      expect(replay.statusCode).toBe(422);
    });
  });

  describe('Draft, Open, Closed (closed, not erased)', () => {
    const create = async () => (await send({ mode: 1, job_id: 0, ...valid(), status: 'Open' })).json().row;
    const patch = (id: number, status: string, version?: number) =>
      app.inject({
        method: 'PATCH',
        url: `/api/admin/job-openings/${id}`,
        headers: version === undefined ? headers : { ...headers, 'if-match': `"${version}"` },
        payload: { status },
      });
    const publicTitles = async () =>
      ((await app.inject('/api/bind-job-openings')).json() as { job_title: string }[]).map(
        (r) => r.job_title,
      );
    const adminRows = async () =>
      (await app.inject({ url: '/api/admin/job-openings', headers })).json() as {
        job_id: number;
        status: string;
        application_count: number;
        application_statuses: Record<string, number>;
      }[];

    it('creates an opening Open when asked to; Draft and Closed ones leave the public list but stay in the back office', async () => {
      const row = await create();
      expect(row.status).toBe('Open');
      expect(await publicTitles()).toEqual([row.job_title]);
      expect((await patch(row.job_id, 'Closed')).statusCode).toBe(428);
      const closed = await patch(row.job_id, 'Closed', 1);
      expect(closed.statusCode).toBe(200);
      expect(closed.json().row).toMatchObject({ status: 'Closed', version: 2 });
      expect(await publicTitles()).toEqual([]);
      expect((await app.inject(`/api/bind-job-openings?jobid=${row.job_id}`)).json()).toEqual([]);
      const list = await app.inject({ url: '/api/admin/job-openings', headers });
      expect(list.headers['cache-control']).toBe('private, no-store');
      expect(await adminRows()).toMatchObject([
        { job_id: row.job_id, status: 'Closed', application_count: 0, application_statuses: {} },
      ]);
      // a stale change of status is refused with the opening as it is now
      const late = await patch(row.job_id, 'Draft', 1);
      expect(late.statusCode).toBe(409);
      expect(late.json().current).toMatchObject({ status: 'Closed', version: 2 });
      expect((await patch(row.job_id, 'Open', 2)).json().row.status).toBe('Open');
      expect(await publicTitles()).toEqual([row.job_title]);
      const audit = await app.db
        .selectFrom('audit_log')
        .select('detail')
        .where('entity', '=', 'job_opening')
        .where('action', '=', 'status')
        .orderBy('audit_id')
        .execute();
      expect(audit.map((a) => JSON.parse(a.detail!))).toMatchObject([
        { from: 'Open', to: 'Closed' },
        { from: 'Closed', to: 'Open' },
      ]);
      expect((await patch(row.job_id, 'Archived', 3)).statusCode).toBe(400);
      expect((await patch(999_999, 'Closed', 1)).statusCode).toBe(404);
    });

    it('closing asks about the applications still open: keeps them, or rejects them with a reason and mails each candidate in their language', async () => {
      const row = await create();
      const apply = async (name: string, email: string, lang: string, status: string) => {
        const { application_id: id } = await addApplication(app, {
          jobId: row.job_id,
          name,
          email,
          at: new Date(),
        });
        await app.db
          .updateTable('job_application')
          .set({ lang, status })
          .where('application_id', '=', id)
          .execute();
        return id;
      };
      const asha = await apply('Asha Menon', 'asha@example.com', 'en', 'New');
      const jonas = await apply('Jonas Weiß', 'jonas@example.com', 'de', 'Interview');
      const hired = await apply('Ravi Nair', 'ravi@example.com', 'en', 'Hired');
      const close = (payload: object, who = headers) =>
        app.inject({
          method: 'PATCH',
          url: `/api/admin/job-openings/${row.job_id}`,
          headers: { ...who, 'if-match': '"1"' },
          payload: { status: 'Closed', ...payload },
        });
      const statuses = async () =>
        (
          await app.db
            .selectFrom('job_application')
            .select(['application_id', 'status'])
            .orderBy('application_id')
            .execute()
        ).map((a) => a.status);
      // a rejection says why; one without a reason, or by someone who may not change applications, changes nothing
      const bare = await close({ applications: 'reject', reason: '  ', mail: true });
      expect(bare.statusCode).toBe(400);
      expect(bare.json().codes).toEqual({ reason: 'reasonRequired' });
      const { headers: jobsOnly } = await signInAs(app, { permissions: ['jobs.manage'] });
      expect((await close({ applications: 'reject', reason: 'Filled' }, jobsOnly)).statusCode).toBe(403);
      expect(await statuses()).toEqual(['New', 'Interview', 'Hired']);
      expect((await app.db.selectFrom('job_opening').select('status').executeTakeFirstOrThrow()).status).toBe(
        'Open',
      );

      const closed = await close({
        applications: 'reject',
        reason: 'The position has been filled',
        mail: true,
      });
      expect(closed.statusCode).toBe(200);
      expect(closed.json()).toMatchObject({ row: { status: 'Closed' }, rejected: 2, mailed: 2 });
      // the hired candidate is left alone
      expect(await statuses()).toEqual(['Rejected', 'Rejected', 'Hired']);
      const mails = await app.db
        .selectFrom('mail_outbox')
        .select(['to_address', 'lang', 'subject', 'text_body', 'application_id'])
        .where('kind', '=', 'candidate-mail')
        .orderBy('mail_id')
        .execute();
      expect(mails.map((m) => [m.to_address, m.lang, m.application_id])).toEqual([
        ['asha@example.com', 'en', asha],
        ['jonas@example.com', 'de', jonas],
      ]);
      expect(mails[0]!.text_body).toContain('Asha Menon');
      expect(mails[1]!.text_body).toContain('Jonas Weiß');
      expect(mails[1]!.subject).not.toBe(mails[0]!.subject);
      // each timeline says who moved it and why
      const timeline = await app.inject({ url: `/api/admin/job-applications/${jonas}/timeline`, headers });
      expect(timeline.json().events).toContainEqual(
        expect.objectContaining({
          kind: 'status',
          from: 'Interview',
          to: 'Rejected',
          reason: 'The position has been filled',
        }),
      );
      expect(hired).toBeGreaterThan(0);
    });

    it('closing that keeps the applications leaves them as they are and mails nobody', async () => {
      const row = await create();
      await addApplication(app, {
        jobId: row.job_id,
        name: 'Asha Menon',
        email: 'asha@example.com',
        at: new Date(),
      });
      const kept = await app.inject({
        method: 'PATCH',
        url: `/api/admin/job-openings/${row.job_id}`,
        headers: { ...headers, 'if-match': '"1"' },
        payload: { status: 'Closed', applications: 'keep', reason: 'ignored', mail: true },
      });
      expect(kept.json()).toMatchObject({ row: { status: 'Closed' } });
      expect(kept.json()).not.toHaveProperty('rejected');
      expect(
        (await app.db.selectFrom('job_application').select('status').executeTakeFirstOrThrow()).status,
      ).toBe('New');
      expect(
        await app.db
          .selectFrom('mail_outbox')
          .select('mail_id')
          .where('kind', '=', 'candidate-mail')
          .execute(),
      ).toEqual([]);
    });

    it('refuses to delete an opening with applications (409 with their number); one without is deleted', async () => {
      const row = await create();
      const empty = await create();
      await addApplication(app, {
        jobId: row.job_id,
        name: 'Asha Menon',
        email: 'asha@example.com',
        at: new Date(),
      });
      await addApplication(app, {
        jobId: row.job_id,
        name: 'Ravi Nair',
        email: 'ravi@example.com',
        at: new Date(),
      });
      expect((await adminRows()).find((r) => r.job_id === row.job_id)).toMatchObject({
        application_count: 2,
        application_statuses: { New: 2 },
      });
      // and at each status, as the recruiters move them
      await app.db
        .updateTable('job_application')
        .set({ status: 'Interview' })
        .where('email', '=', 'ravi@example.com')
        .execute();
      expect((await adminRows()).find((r) => r.job_id === row.job_id)?.application_statuses).toEqual({
        New: 1,
        Interview: 1,
      });
      expect((await adminRows()).find((r) => r.job_id === empty.job_id)?.application_statuses).toEqual({});
      const refused = await send({ mode: 3, job_id: row.job_id });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        applications: 2,
        message: expect.stringMatching(/close it instead/),
      });
      expect(
        await app.db.selectFrom('job_opening').select('job_id').where('job_id', '=', row.job_id).execute(),
      ).toHaveLength(1);
      expect((await send({ mode: 3, job_id: empty.job_id })).statusCode).toBe(200);
    });

    it('lets only jobs.manage list every opening or change a status', async () => {
      const row = await create();
      const reader = await signInAs(app, { permissions: ['applications.read'] });
      expect((await app.inject({ url: '/api/admin/job-openings', headers: reader.headers })).statusCode).toBe(
        403,
      );
      const res = await app.inject({
        method: 'PATCH',
        url: `/api/admin/job-openings/${row.job_id}`,
        headers: { ...reader.headers, 'if-match': '"1"' },
        payload: { status: 'Closed' },
      });
      expect(res.statusCode).toBe(403);
      expect((await app.inject('/api/admin/job-openings')).statusCode).toBe(401);
    });
  });
});
