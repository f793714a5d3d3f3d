import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor, type EventObject } from 'xstate';
import type { JobOpeningRow } from '../../contract/jobs';
import { VersionConflict } from '../../contract/versions';
import {
  EMPTY_JOB_FORM,
  JOB_ERROR_CODES,
  JOB_FORM_FIELDS,
  JOB_RICH_MIN,
  JOB_TEXT_MAX,
  JOB_TEXT_MIN,
  isRichTextField,
  jobErrorMessage,
  jobFieldError,
  jobFieldFilled,
  type JobFormField,
  type JobErrorCode,
  type JobFormValues,
} from '../../contract/jobs-admin';
import en from '../i18n/locales/en/admin.json';
import {
  controlledActors,
  createPathModel,
  everyTransition,
  valueWithout,
  withoutRegions,
} from './testing/test-model';
import {
  UNLOCK_STATES,
  isChanged,
  jobFormMachine,
  unlockedAt,
  unlockStateOf,
  valuesOf,
  type JobDraft,
  type SaveJobInput,
  type UnlockState,
} from './job-form.machine';
import { savingActor, type RecordEditorEvent, type SavedAnswer } from './record-editor.machine';

type JobFormEvent = RecordEditorEvent<JobOpeningRow, JobFormValues>;
type SaveJobOutput = SavedAnswer<JobOpeningRow>;
/** The save actor from a function of what it sends (the form's save: SaveJobInput). */
const saving = (save: (input: SaveJobInput) => Promise<unknown>) =>
  savingActor<JobOpeningRow, JobFormValues, SaveJobInput>(
    (input) => save(input) as Promise<SaveJobOutput | QueuedSubmission>,
  );
/** The error the form shows (the first failing field's), or null. */
const shownError = (actor: {
  getSnapshot(): { context: { errors: Partial<Record<JobFormField, string>> } };
}) => {
  const [field, code] = Object.entries(actor.getSnapshot().context.errors)[0] ?? [];
  return field ? { field: field as JobFormField, code: code as JobErrorCode } : null;
};
import type { QueuedSubmission } from '../offline/queued';

const VALID: JobFormValues = {
  job_title: 'Copy Editor',
  department: 'Editorial',
  location: 'Kochi, India',
  job_type_id: '1',
  work_type: 'onsite',
  country: 'IN',
  locality: 'Kochi',
  description: '<p>Edit manuscripts for clarity.</p>',
  requirement: '<ul><li>Three years of editing</li></ul>',
  about_role: '<p>Work with journal editors.</p>',
  responsibility: '<ul><li>Copy edit accepted papers</li></ul>',
};

const ROW: JobOpeningRow = {
  job_id: 7,
  job_title: 'Copy Editor',
  department: 'Editorial',
  location: 'Kochi, India',
  work_type: 'onsite',
  country: 'IN',
  locality: 'Kochi',
  job_type_id: 1,
  job_type_name: 'Full-time',
  description: VALID.description,
  requirement: VALID.requirement,
  about_role: VALID.about_role,
  responsibility: VALID.responsibility,
  version: 3,
};

function effects() {
  return {
    focusField: vi.fn(),
    notifySaved: vi.fn(),
    notifyFailed: vi.fn(),
  };
}

function start(save: (input: unknown) => Promise<unknown>, spies = effects()) {
  const actor = createActor(
    jobFormMachine.provide({
      actors: {
        save: saving(save),
      },
      actions: {
        focusField: (_, params) => spies.focusField(params.field),
        notifySaved: (_, params) => spies.notifySaved(params),
        notifyFailed: (_, params) => spies.notifyFailed(params),
      },
    }),
  ).start();
  return { actor, spies };
}

const fill = (actor: ReturnType<typeof start>['actor'], values: Partial<JobFormValues>) => {
  for (const [field, value] of Object.entries(values))
    actor.send({ type: 'field.change', field: field as JobFormField, value });
};

describe('admin job form', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('unlocks the fields in order: each opens once every earlier field has a value', () => {
    // Arrange
    const { actor } = start(async () => ({}));
    const at = () => unlockStateOf(actor.getSnapshot());
    actor.send({ type: 'editor.open' });
    expect(at()).toBe('job_title');
    // Act: the first three fields, then the location emptied and a description of empty markup
    fill(actor, { job_title: 'Copy Editor', department: 'Editorial', location: 'Kochi' });
    expect(at()).toBe('job_type_id');
    fill(actor, { location: '', description: '<p><br></p>' });
    // Assert: the emptied location locks everything after it again
    expect(at()).toBe('location');
    expect(unlockedAt(at())).toEqual({
      job_title: true,
      department: true,
      location: true,
      job_type_id: false,
      work_type: false,
      country: false,
      locality: false,
      description: false,
      requirement: false,
      about_role: false,
      responsibility: false,
    });
    fill(actor, VALID);
    expect(at()).toBe('complete');
    expect(Object.values(unlockedAt(at())).every(Boolean)).toBe(true);
    fill(actor, { description: '' });
    expect(at()).toBe('description');
    expect(unlockedAt(at()).requirement).toBe(false);
  });

  it('asks an opening on site for its country and city, and lets a remote one leave them out', () => {
    const { actor, spies } = start(async () => ({ message: 'ok', row: ROW }));
    actor.send({ type: 'editor.open' });
    fill(actor, { ...VALID, country: '', locality: '' });
    expect(unlockStateOf(actor.getSnapshot())).toBe('country');
    actor.send({ type: 'editor.submit' });
    expect(shownError(actor)).toEqual({ field: 'country', code: 'countryRequired' });
    expect(spies.focusField).toHaveBeenLastCalledWith('country');
    fill(actor, { work_type: 'remote' });
    expect(unlockStateOf(actor.getSnapshot())).toBe('complete');
    actor.send({ type: 'editor.submit' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
  });

  it('opens an existing job with every field unlocked', () => {
    const { actor } = start(async () => ({}));
    actor.send({ type: 'editor.open', row: ROW });
    expect(unlockStateOf(actor.getSnapshot())).toBe('complete' satisfies UnlockState);
  });

  it('shows only the first error in field order, focuses that field and keeps it until that field changes', () => {
    const { actor, spies } = start(async () => ({}));
    actor.send({ type: 'editor.open' });
    fill(actor, { job_title: 'A', department: 'Team 42' });
    actor.send({ type: 'editor.submit' });
    expect(shownError(actor)).toEqual({ field: 'job_title', code: 'tooShort' });
    expect(jobErrorMessage('job_title', 'tooShort')).toBe('Job title must be at least 2 characters long.');
    expect(spies.focusField).toHaveBeenCalledWith('job_title');
    // read at leisure: time alone does not take it away, nor typing elsewhere
    vi.advanceTimersByTime(60_000);
    actor.send({ type: 'field.change', field: 'department', value: 'Team 43' });
    expect(shownError(actor)).toEqual({ field: 'job_title', code: 'tooShort' });
    actor.send({ type: 'field.change', field: 'job_title', value: 'Ab' });
    expect(shownError(actor)).toBeNull();
    expect(actor.getSnapshot().matches('editing')).toBe(true);
  });

  it.each<[Partial<JobFormValues>, JobFormField, string]>([
    [{ job_title: '' }, 'job_title', 'Job Title is required.'],
    [{ job_title: 'x'.repeat(201) }, 'job_title', 'Job title must not exceed 200 characters.'],
    [{ job_title: 'Editor <b>' }, 'job_title', "Job title cannot contain '<'."],
    [{ job_title: 'Editor ->' }, 'job_title', "Job title cannot contain '>'."],
    [{ department: '' }, 'department', 'Department is required.'],
    [{ department: 'E' }, 'department', 'Department must be at least 2 characters long.'],
    [{ department: 'x'.repeat(201) }, 'department', 'Department must not exceed 200 characters.'],
    [{ department: 'Team \u202E24' }, 'department', 'Department cannot contain U+202E.'],
    [{ location: '' }, 'location', 'Location is required.'],
    [{ location: 'K' }, 'location', 'Location must be at least 2 characters long.'],
    [{ location: 'x'.repeat(201) }, 'location', 'Location must not exceed 200 characters.'],
    [{ location: 'Kochi\tKerala' }, 'location', 'Location cannot contain U+0009.'],
    [{ location: 'Kochi\u200B' }, 'location', 'Location cannot contain U+200B.'],
    [{ job_type_id: '' }, 'job_type_id', 'Please select a job type.'],
    [{ description: '<p><br></p>' }, 'description', 'Description is required.'],
    [
      { description: '<p>Too short</p>'.replace('Too short', 'short') },
      'description',
      'Description must be at least 10 characters long.',
    ],
    [{ requirement: '' }, 'requirement', 'Requirement is required.'],
    [
      { requirement: '<ul><li>tiny</li></ul>' },
      'requirement',
      'Requirement must be at least 10 characters long.',
    ],
    [{ about_role: '' }, 'about_role', 'About the Role is required.'],
    [{ about_role: '<p>abc</p>' }, 'about_role', 'About the Role must be at least 10 characters long.'],
    [{ responsibility: '' }, 'responsibility', 'Responsibility is required.'],
    [
      { responsibility: '<p>  a  b </p>' },
      'responsibility',
      'Responsibility must be at least 10 characters long.',
    ],
  ])('%o fails with "%s" on %s', (change, field, message) => {
    const { actor } = start(async () => ({}));
    actor.send({ type: 'editor.open' });
    fill(actor, { ...VALID, ...change });
    actor.send({ type: 'editor.submit' });
    const error = shownError(actor)!;
    expect(error.field).toBe(field);
    expect(jobErrorMessage(error.field, error.code, actor.getSnapshot().context.fields[field])).toBe(message);
  });

  it("the dialog's English texts of every code are the spec's words", () => {
    const fill = (text: string, vars: Record<string, string | number>) =>
      text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(vars[k]));
    for (const field of JOB_FORM_FIELDS) {
      // the codes a field can get: its type's, or the job type's one
      const SELECTS = {
        job_type_id: 'typeRequired',
        work_type: 'workTypeRequired',
        country: 'countryRequired',
      } as const;
      const codes = JOB_ERROR_CODES.filter(
        (code) =>
          !(Object.values(SELECTS) as string[]).includes(code) &&
          (code === 'required' || code.startsWith('rich') === isRichTextField(field)),
      );
      for (const code of field in SELECTS ? [SELECTS[field as keyof typeof SELECTS]] : codes) {
        const text = fill(en.jobErrors[code], {
          field: en.fields[field],
          name: (en.jobErrors.names as Record<string, string>)[field] ?? en.fields[field],
          min: isRichTextField(field) ? JOB_RICH_MIN : JOB_TEXT_MIN,
          max: JOB_TEXT_MAX,
          char: "'<'",
        });
        expect(text).toBe(jobErrorMessage(field, code, 'a <'));
      }
    }
  });

  it('allows what real titles and places are written with', () => {
    for (const [job_title, department, location] of [
      ['R&D Lead (Data/AI), Sr. - 2', 'R&D, Ops./Editorial - EU', 'London (HQ), U.K. - 2/F'],
      ['C# Developer', 'Team 2', "Côte d'Ivoire"],
      ['Editor #1: Science + Health', 'Production – Journals', 'Anywhere (UTC-5 to UTC+5:30)'],
      ['Rédacteur·rice « Sciences »', 'Ü-Team & Co.', 'São Paulo / Zürich'],
      ['എഡിറ്റർ', 'പ്രൊഡക്ഷൻ', 'കൊച്ചി, കേരളം'],
      ['Copy editor 👩‍💻', 'Dept. "Q&A"', '東京都 · 大阪'],
    ]) {
      const values = { ...VALID, job_title, department, location };
      expect(jobFieldError('job_title', values), job_title).toBeNull();
      expect(jobFieldError('department', values), department).toBeNull();
      expect(jobFieldError('location', values), location).toBeNull();
    }
  });

  it('creates: saves the values, hands the row to the list, toasts, then closes and resets', async () => {
    vi.useRealTimers();
    const save = vi.fn(async () => ({ message: 'Job created successfully', row: ROW }));
    const { actor, spies } = start(save);
    actor.send({ type: 'editor.open' });
    fill(actor, VALID);
    actor.send({ type: 'editor.submit' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(save).toHaveBeenCalledWith({
      body: { mode: 1, job_id: 0, ...VALID, job_type_id: 1 },
      version: undefined,
    });
    expect(spies.notifySaved).toHaveBeenCalledWith({
      row: ROW,
      created: true,
      message: 'Job created successfully',
    });
    expect(actor.getSnapshot().context.fields.job_title).toBe('');
  });

  it('edits: pre-fills the fields from the job and saves in edit mode', async () => {
    vi.useRealTimers();
    const save = vi.fn(async () => ({
      message: 'Job updated successfully',
      row: { ...ROW, location: 'Remote' },
    }));
    const { actor, spies } = start(save);
    actor.send({ type: 'editor.open', row: ROW });
    expect(actor.getSnapshot().context).toMatchObject({ mode: 'edit', recordId: 7, fields: VALID });
    fill(actor, { location: 'Remote' });
    actor.send({ type: 'editor.submit' });
    await waitFor(actor, (s) => s.matches('closed'));
    // only the changed field is sent, based on the version the form opened
    expect(save).toHaveBeenCalledWith({ body: { mode: 2, job_id: 7, location: 'Remote' }, version: 3 });
    expect(spies.notifySaved).toHaveBeenCalledWith({
      row: { ...ROW, location: 'Remote' },
      created: false,
      message: 'Job updated successfully',
    });
  });

  describe('when someone else saved the opening meanwhile', () => {
    const theirs = (over: Partial<JobOpeningRow>, version = 4) =>
      new VersionConflict<JobOpeningRow>({
        current: { ...ROW, ...over, version },
        changedBy: 'asha@example.com',
        changedAt: '2026-11-27T10:42:00.000Z',
      });

    describe('a change made without a connection', () => {
      function queueing(save: (input: unknown) => Promise<SaveJobOutput | QueuedSubmission>) {
        const spies = {
          queued: vi.fn(),
          forgotQueued: vi.fn(),
          forgotDraft: vi.fn(),
          saved: vi.fn(),
          merged: vi.fn(),
        };
        const actor = createActor(
          jobFormMachine.provide({
            actors: { save: saving(save) },
            actions: {
              notifyQueued: (_, params) => spies.queued(params.created),
              forgetQueued: (_, params) => spies.forgotQueued(params.id),
              forgetDraft: (_, ref) => spies.forgotDraft(ref),
              notifySaved: (_, params) => spies.saved(params.row),
              notifyMerged: (_, params) => spies.merged(params.changedBy),
            },
          }),
        ).start();
        return { actor, spies };
      }
      const change = {
        id: 'queued-change-1',
        recordId: ROW.job_id,
        version: 3,
        original: null,
        base: valuesOf(ROW),
        values: { ...valuesOf(ROW), location: 'Remote' },
        file: null,
      };

      it('is kept on the device: the form closes saying it waits, with the version and what it opened with', async () => {
        vi.useRealTimers();
        const save = vi.fn().mockResolvedValue({ queued: true, id: 'k1' });
        const { actor, spies } = queueing(save);
        actor.send({ type: 'editor.open', row: ROW });
        fill(actor, { location: 'Remote' });
        actor.send({ type: 'editor.submit' });
        await waitFor(actor, (s) => s.matches('closed'));
        expect(save).toHaveBeenCalledWith({ body: { mode: 2, job_id: 7, location: 'Remote' }, version: 3 });
        expect(spies.queued).toHaveBeenCalledWith(false);
        expect(spies.saved).not.toHaveBeenCalled();
        expect(spies.forgotDraft).toHaveBeenCalledWith({ id: ROW.job_id });
      });

      it('that met their change to the same field is taken up in the conflict view, and removed from the queue once saved', async () => {
        vi.useRealTimers();
        const save = vi
          .fn()
          .mockRejectedValueOnce(theirs({ location: 'Berlin' }))
          .mockResolvedValueOnce({ message: 'Job updated successfully', row: { ...ROW, version: 5 } });
        const { actor, spies } = queueing(save);
        actor.send({ type: 'editor.resume', change });
        // sent again on the version it was based on: the server says what changed meanwhile
        await waitFor(actor, (s) => s.matches('conflict'));
        expect(save.mock.calls[0][0]).toEqual({
          body: { mode: 2, job_id: 7, location: 'Remote' },
          version: 3,
        });
        const { context } = actor.getSnapshot();
        expect(context.conflict).toMatchObject({ fields: ['location'], changedBy: 'asha@example.com' });
        expect(context.conflict!.theirs.location).toBe('Berlin');
        expect(context.fields.location).toBe('Remote');
        expect(spies.forgotQueued).not.toHaveBeenCalled();
        actor.send({ type: 'conflict.keepMine' });
        await waitFor(actor, (s) => s.matches('closed'));
        expect(save.mock.calls[1][0]).toEqual({
          body: { mode: 2, job_id: 7, location: 'Remote' },
          version: 4,
        });
        expect(spies.forgotQueued).toHaveBeenCalledWith('queued-change-1');
      });

      it('cancelled in the conflict view stays in the queue for later', async () => {
        vi.useRealTimers();
        const save = vi.fn().mockRejectedValueOnce(theirs({ location: 'Berlin' }));
        const { actor, spies } = queueing(save);
        actor.send({ type: 'editor.resume', change });
        await waitFor(actor, (s) => s.matches('conflict'));
        actor.send({ type: 'editor.cancel' });
        expect(actor.getSnapshot().matches('closed')).toBe(true);
        expect(spies.forgotQueued).not.toHaveBeenCalled();
      });

      it('that met a change to other fields only is saved together with it at once', async () => {
        vi.useRealTimers();
        const save = vi
          .fn()
          .mockRejectedValueOnce(theirs({ department: 'Production' }))
          .mockResolvedValueOnce({ message: 'Job updated successfully', row: ROW });
        const { actor, spies } = queueing(save);
        actor.send({ type: 'editor.resume', change });
        await waitFor(actor, (s) => s.matches('closed'));
        expect(spies.merged).toHaveBeenCalledWith('asha@example.com');
        expect(spies.forgotQueued).toHaveBeenCalledWith('queued-change-1');
      });
    });

    it('takes their change to other fields and saves again at once on their version', async () => {
      vi.useRealTimers();
      const save = vi
        .fn<(input: unknown) => Promise<SaveJobOutput>>()
        .mockRejectedValueOnce(theirs({ department: 'Production' }))
        .mockResolvedValueOnce({ message: 'Job updated successfully', row: ROW });
      const merged = vi.fn();
      const actor = createActor(
        jobFormMachine.provide({
          actors: { save: saving(save) },
          actions: { notifyMerged: (_, params) => merged(params.changedBy) },
        }),
      ).start();
      actor.send({ type: 'editor.open', row: ROW });
      fill(actor, { location: 'Remote' });
      actor.send({ type: 'editor.submit' });
      await waitFor(actor, (s) => s.matches('closed'));
      // mine on their version: their department stays theirs
      expect(save).toHaveBeenLastCalledWith({ body: { mode: 2, job_id: 7, location: 'Remote' }, version: 4 });
      expect(merged).toHaveBeenCalledWith('asha@example.com');
    });

    it('shows theirs beside mine for a field both changed, and keeps what was typed until a choice', async () => {
      vi.useRealTimers();
      const save = vi.fn().mockRejectedValueOnce(theirs({ location: 'Chennai' }));
      const { actor } = start(save);
      actor.send({ type: 'editor.open', row: ROW });
      fill(actor, { location: 'Remote', job_title: 'Senior Copy Editor' });
      actor.send({ type: 'editor.submit' });
      await waitFor(actor, (s) => s.matches('conflict'));
      const { conflict, fields: values, version } = actor.getSnapshot().context;
      expect(conflict).toMatchObject({ fields: ['location'], changedBy: 'asha@example.com' });
      expect(conflict!.theirs.location).toBe('Chennai');
      expect(values).toMatchObject({ location: 'Remote', job_title: 'Senior Copy Editor' });
      expect(version).toBe(4);
      expect(actor.getSnapshot().can({ type: 'conflict.keepBoth' })).toBe(false); // no rich text in both
    });

    it('keep mine saves my fields over theirs on their version', async () => {
      vi.useRealTimers();
      const save = vi
        .fn()
        .mockRejectedValueOnce(theirs({ location: 'Chennai', department: 'Production' }))
        .mockResolvedValueOnce({ message: 'Job updated successfully', row: ROW });
      const { actor } = start(save);
      actor.send({ type: 'editor.open', row: ROW });
      fill(actor, { location: 'Remote' });
      actor.send({ type: 'editor.submit' });
      await waitFor(actor, (s) => s.matches('conflict'));
      actor.send({ type: 'conflict.keepMine' });
      await waitFor(actor, (s) => s.matches('closed'));
      expect(save).toHaveBeenLastCalledWith({ body: { mode: 2, job_id: 7, location: 'Remote' }, version: 4 });
    });

    it('take theirs puts their text in the fields both changed and goes back to editing', async () => {
      vi.useRealTimers();
      const save = vi.fn().mockRejectedValueOnce(theirs({ location: 'Chennai' }));
      const { actor } = start(save);
      actor.send({ type: 'editor.open', row: ROW });
      fill(actor, { location: 'Remote', job_title: 'Senior Copy Editor' });
      actor.send({ type: 'editor.submit' });
      await waitFor(actor, (s) => s.matches('conflict'));
      actor.send({ type: 'conflict.takeTheirs' });
      expect(actor.getSnapshot().matches('editing')).toBe(true);
      expect(actor.getSnapshot().context.fields).toMatchObject({
        location: 'Chennai',
        job_title: 'Senior Copy Editor',
      });
      expect(actor.getSnapshot().context.conflict).toBeNull();
    });

    it('keep both puts their text then mine in a rich-text field both changed', async () => {
      vi.useRealTimers();
      const save = vi
        .fn()
        .mockRejectedValueOnce(
          theirs({ description: '<p>Their words about the role, also long enough.</p>' }),
        );
      const { actor } = start(save);
      actor.send({ type: 'editor.open', row: ROW });
      fill(actor, { description: '<p>My own words about the role, long enough.</p>' });
      actor.send({ type: 'editor.submit' });
      await waitFor(actor, (s) => s.matches('conflict'));
      actor.send({ type: 'conflict.keepBoth' });
      expect(actor.getSnapshot().context.fields.description).toBe(
        '<p>Their words about the role, also long enough.</p><p>My own words about the role, long enough.</p>',
      );
    });
  });

  it('keeps the typed form open when the save fails, with the error toast', async () => {
    vi.useRealTimers();
    const { actor, spies } = start(async () => {
      throw Object.assign(new Error('Database is down'), { status: 503 });
    });
    actor.send({ type: 'editor.open' });
    fill(actor, VALID);
    actor.send({ type: 'editor.submit' });
    await waitFor(actor, (s) => s.matches('editing'));
    expect(actor.getSnapshot().context.fields).toEqual(VALID);
    expect(spies.notifyFailed).toHaveBeenCalledTimes(1);
    expect(spies.notifySaved).not.toHaveBeenCalled();
  });

  it('cancel closes and resets what was typed', () => {
    const { actor } = start(async () => ({}));
    actor.send({ type: 'editor.open' });
    fill(actor, { job_title: 'Half typed' });
    actor.send({ type: 'editor.cancel' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    actor.send({ type: 'editor.open' });
    expect(actor.getSnapshot().context.fields.job_title).toBe('');
  });
});

const valuesOfRow = (): JobFormValues => ({
  job_title: ROW.job_title,
  department: ROW.department,
  location: ROW.location,
  job_type_id: String(ROW.job_type_id),
  work_type: ROW.work_type!,
  country: ROW.country!,
  locality: ROW.locality!,
  description: ROW.description,
  requirement: ROW.requirement,
  about_role: ROW.about_role,
  responsibility: ROW.responsibility,
});

describe('admin job form drafts on the device', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const DRAFT = {
    values: { ...VALID, job_title: 'Copy Editor (draft)' },
    savedAt: '2026-11-25T10:00:00.000Z',
  };

  function withDrafts(found: typeof DRAFT | null) {
    const written: JobFormValues[] = [];
    const forgotten: unknown[] = [];
    const actor = createActor(
      jobFormMachine.provide({
        actors: {
          save: saving(async () => ({ message: 'Job created successfully', row: ROW })),
          readDraft: fromPromise(async () => found),
          writeDraft: fromPromise(async ({ input }) => void written.push(input.values)),
        },
        actions: { forgetDraft: (_, ref) => forgotten.push(ref) },
      }),
    ).start();
    return { actor, written, forgotten };
  }

  it('keeps what is typed on the device 2 s after the first change, with everything typed by then', async () => {
    const { actor, written } = withDrafts(null);
    actor.send({ type: 'editor.open' });
    fill(actor, { job_title: 'Copy' });
    await vi.advanceTimersByTimeAsync(1000);
    fill(actor, { job_title: 'Copy Editor', department: 'Editorial' });
    expect(written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(written).toEqual([{ ...EMPTY_JOB_FORM, job_title: 'Copy Editor', department: 'Editorial' }]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(written).toHaveLength(1); // nothing new typed: nothing written again
  });

  it('does not offer its own autosaved draft when the person comes back to the form (Keep editing)', async () => {
    let found: typeof DRAFT | null = null;
    let reads = 0;
    const written: JobFormValues[] = [];
    const actor = createActor(
      jobFormMachine.provide({
        actors: {
          readDraft: fromPromise(async () => {
            reads++;
            return found;
          }),
          writeDraft: fromPromise(async ({ input }) => {
            written.push(input.values);
            found = { values: input.values, savedAt: '2026-12-07T10:00:00.000Z' };
          }),
        },
      }),
    ).start();
    actor.send({ type: 'editor.open' });
    await vi.advanceTimersByTimeAsync(0);
    fill(actor, { job_title: 'Copy' });
    await vi.advanceTimersByTimeAsync(2000); // autosaved
    fill(actor, { job_title: 'Copy Editor' });
    actor.send({ type: 'editor.dismiss' });
    expect(actor.getSnapshot().value).toBe('confirmingDiscard');
    actor.send({ type: 'discard.cancel' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ editing: { restore: 'none' } })).toBe(true);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(written.at(-1)?.job_title).toBe('Copy Editor');
  });

  it('offers a draft that differs from the form; Restore puts it in the form and unlocks what it fills', async () => {
    const { actor } = withDrafts(DRAFT);
    actor.send({ type: 'editor.open' });
    await vi.waitFor(() =>
      expect(actor.getSnapshot().matches({ editing: { restore: 'offering' } })).toBe(true),
    );
    expect(actor.getSnapshot().context.draft).toEqual(DRAFT);
    actor.send({ type: 'draft.restore' });
    expect(actor.getSnapshot().context.fields.job_title).toBe('Copy Editor (draft)');
    expect(unlockStateOf(actor.getSnapshot())).toBe('complete');
    expect(actor.getSnapshot().matches({ editing: { restore: 'none' } })).toBe(true);
  });

  it('Dismiss drops the draft; a draft equal to the form is not offered', async () => {
    const dismissed = withDrafts(DRAFT);
    dismissed.actor.send({ type: 'editor.open' });
    await vi.waitFor(() =>
      expect(dismissed.actor.getSnapshot().matches({ editing: { restore: 'offering' } })).toBe(true),
    );
    dismissed.actor.send({ type: 'draft.ignore' });
    expect(dismissed.actor.getSnapshot().context.fields).toEqual(EMPTY_JOB_FORM);
    expect(dismissed.forgotten).toEqual([{ id: 0 }]);

    const same = withDrafts({ values: valuesOfRow(), savedAt: DRAFT.savedAt });
    same.actor.send({ type: 'editor.open', row: ROW });
    await vi.waitFor(() =>
      expect(same.actor.getSnapshot().matches({ editing: { restore: 'none' } })).toBe(true),
    );
  });

  it('a saved, cancelled or discarded form leaves no draft behind', async () => {
    const saved = withDrafts(null);
    saved.actor.send({ type: 'editor.open', row: ROW });
    saved.actor.send({ type: 'editor.submit' });
    await vi.waitFor(() => expect(saved.actor.getSnapshot().matches('closed')).toBe(true));
    expect(saved.forgotten).toEqual([{ id: ROW.job_id }]);

    const cancelled = withDrafts(null);
    cancelled.actor.send({ type: 'editor.open' });
    fill(cancelled.actor, { job_title: 'Half typed' });
    cancelled.actor.send({ type: 'editor.cancel' });
    cancelled.actor.send({ type: 'editor.open' });
    fill(cancelled.actor, { job_title: 'Typed again' });
    cancelled.actor.send({ type: 'editor.dismiss' });
    cancelled.actor.send({ type: 'discard.confirm' });
    expect(cancelled.forgotten).toEqual([{ id: 0 }, { id: 0 }]);
  });
});

describe('admin job form dismissed by the backdrop or Escape', () => {
  it('closes an unchanged form at once, new or opened for editing', () => {
    const { actor } = start(async () => ({}));
    actor.send({ type: 'editor.open' });
    actor.send({ type: 'editor.dismiss' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    actor.send({ type: 'editor.open', row: ROW });
    // the editor reports its own HTML for the same text: not a change
    actor.send({ type: 'field.change', field: 'description', value: `${ROW.description}<p></p>` });
    actor.send({ type: 'editor.dismiss' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });

  it('asks before throwing away a change: Keep editing keeps it, Discard closes and resets', () => {
    const { actor } = start(async () => ({}));
    actor.send({ type: 'editor.open', row: ROW });
    actor.send({ type: 'field.change', field: 'job_title', value: 'Senior Copy Editor' });
    actor.send({ type: 'editor.dismiss' });
    expect(actor.getSnapshot().matches('confirmingDiscard')).toBe(true);
    actor.send({ type: 'discard.cancel' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.fields.job_title).toBe('Senior Copy Editor');
    actor.send({ type: 'editor.dismiss' });
    actor.send({ type: 'discard.confirm' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    actor.send({ type: 'editor.open' });
    expect(actor.getSnapshot().context.fields.job_title).toBe('');
  });

  it('reads a change as a person would: spaces around text and empty markup are not changes', () => {
    expect(isChanged({ ...EMPTY_JOB_FORM, job_title: '  ' }, EMPTY_JOB_FORM)).toBe(false);
    expect(isChanged({ ...EMPTY_JOB_FORM, description: '<p></p>' }, EMPTY_JOB_FORM)).toBe(false);
    expect(isChanged({ ...EMPTY_JOB_FORM, description: '<p>x</p>' }, EMPTY_JOB_FORM)).toBe(true);
  });
});

// The path models walk the dialog without its two draft regions (restore, autosave), whose actors
// and timer would multiply every path; the drafts have their own tests above.
const DRAFT_REGIONS = ['restore', 'autosave'];
const withoutDrafts = (machine: typeof jobFormMachine) => withoutRegions(machine, 'editing', DRAFT_REGIONS);
const dialogValue = (value: unknown) => valueWithout(value, 'editing', DRAFT_REGIONS);

const stepsOf = (path: { steps: { event: { type: string } }[] }) =>
  path.steps.map((s) => s.event.type.replace('xstate.', '')).join(' → ');

/** A change made offline that met someone else's, taken up again (editor.resume). */
const RESUMED = {
  type: 'editor.resume',
  change: {
    id: 'queued-change-1',
    recordId: ROW.job_id,
    version: 3,
    original: null,
    base: valuesOf(ROW),
    values: { ...valuesOf(ROW), location: 'Remote' },
    file: null,
  },
};

describe('admin job form paths', () => {
  const events = [
    { type: 'editor.open' },
    { type: 'editor.open', row: ROW },
    RESUMED,
    { type: 'field.change', field: 'job_title', value: '' },
    { type: 'field.change', field: 'job_title', value: 'Copy Editor' },
    { type: 'editor.submit' },
    { type: 'editor.cancel' },
    { type: 'editor.dismiss' },
    { type: 'discard.confirm' },
    { type: 'discard.cancel' },
    { type: 'field.change', field: 'department', value: 'Production' },
    { type: 'save.succeeded', answer: { message: 'Job updated successfully', row: ROW } },
    { type: 'save.failed', error: new Error('boom') },
  ];
  const model = createPathModel(withoutDrafts(jobFormMachine), { events: events as never });
  const walk = everyTransition(model, 'job-form.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state of the dialog (the unlock order has its own paths below)', () => {
    const reached = new Set(
      paths.flatMap((p) =>
        p.steps.map((step) => {
          const value = step.state.value as string | { editing: { display: string } };
          return typeof value === 'string' ? value : `editing.${value.editing.display}`;
        }),
      ),
    );
    expect([...reached].sort()).toEqual(
      ['closed', 'confirmingDiscard', 'editing.clean', 'editing.invalid', 'submitting'].sort(),
    );
  });

  for (const path of paths) {
    it(`keeps its promises along ${stepsOf(path)}`, async () => {
      vi.useFakeTimers();
      // no draft is found (the read never answers) and none is written during a path: the drafts
      // have their own tests
      const control = controlledActors(['readDraft', 'writeDraft']);
      // the save answers with the path's event
      let reply: ((event: EventObject) => void) | null = null;
      const save = fromCallback<EventObject>(({ sendBack }) => void (reply = sendBack));
      const actor = createActor(
        jobFormMachine.provide({
          actors: { ...(control.actors as object), save } as never,
          delays: { draftDelay: 1e9 },
        }),
      ).start();
      const send = ({ event }: { event: unknown }) => actor.send(event as JobFormEvent);
      await path.test({
        events: {
          'editor.open': send,
          'editor.resume': send,
          'field.change': send,
          'editor.submit': send,
          'editor.cancel': send,
          'editor.dismiss': send,
          'discard.confirm': send,
          'discard.cancel': send,
          'save.succeeded': ({ event }) => reply!(event as EventObject),
          'save.failed': ({ event }) => reply!(event as EventObject),
        },
        states: {
          closed: () => {
            // the dialog is closed and holds nothing typed
            expect(actor.getSnapshot().context.fields.job_title).toBe('');
          },
          'editing.display.clean': () => expect(shownError(actor)).toBeNull(),
          'editing.display.invalid': () =>
            expect(jobErrorMessage(shownError(actor)!.field, shownError(actor)!.code)).toMatch(/\.$/),
          // the unlock region rests on the first field without a value
          'editing.unlock': () => {
            const { fields: values } = actor.getSnapshot().context;
            const firstEmpty = JOB_FORM_FIELDS.find((f) => !jobFieldFilled(f, values)) ?? 'complete';
            expect(unlockStateOf(actor.getSnapshot())).toBe(firstEmpty);
          },
          submitting: () => expect(actor.getSnapshot().matches('submitting')).toBe(true),
          // asking: the change is still there
          confirmingDiscard: () =>
            expect(isChanged(actor.getSnapshot().context.fields, actor.getSnapshot().context.opened)).toBe(
              true,
            ),
        },
      });
      expect(dialogValue(actor.getSnapshot().value)).toEqual(path.state.value);
      vi.useRealTimers();
    });
  }
});

describe('admin job form unlock order paths', () => {
  // Filling the fields one by one and emptying earlier ones: a state is where the unlock region
  // rests, so every field's state and every way out of it is walked.
  const filled: Record<JobFormField, string> = { ...VALID };
  const events = [
    { type: 'editor.open' },
    ...JOB_FORM_FIELDS.map((field) => ({ type: 'field.change', field, value: filled[field] })),
    { type: 'field.change', field: 'job_title', value: '' },
    { type: 'field.change', field: 'location', value: '   ' },
    { type: 'field.change', field: 'description', value: '<p><br></p>' },
    // a remote opening may leave its country and city empty; no work type locks what follows
    { type: 'field.change', field: 'work_type', value: 'remote' },
    { type: 'field.change', field: 'country', value: '' },
    { type: 'field.change', field: 'work_type', value: '' },
    // the graph also tries the machine's own events: give the save's outcome a real shape
    { type: 'save.succeeded', answer: { message: 'Job created successfully', row: ROW } },
  ];
  // a change taken up from the send queue skips the fields (the paths above walk it)
  const drafted = withoutDrafts(jobFormMachine);
  const config = drafted.config as unknown as { states: { closed: { on: Record<string, unknown> } } };
  const { 'editor.resume': _resume, ...closedOn } = config.states.closed.on;
  const unlockOnly = createMachine(
    { ...config, states: { ...config.states, closed: { ...config.states.closed, on: closedOn } } } as never,
    drafted.implementations as never,
  ) as unknown as typeof jobFormMachine;
  const model = createPathModel(unlockOnly, {
    events: events as never,
    serializeState: (state: { value: unknown }) => JSON.stringify(state.value),
  } as never);
  const walk = everyTransition(model, 'job-form.machine (unlock order)', events);

  it('walks every transition of the unlock order, resting on the first field without a value', () => {
    console.log(walk.summary);
    const reached = new Set<string>();
    for (const path of walk.paths) {
      const actor = createActor(
        jobFormMachine.provide({
          actors: { readDraft: fromPromise(() => new Promise<JobDraft | null>(() => {})) },
        }),
      ).start();
      for (const step of path.steps) {
        if ((step.event.type as string) === 'xstate.init') continue;
        actor.send(step.event as JobFormEvent);
        expect(dialogValue(actor.getSnapshot().value)).toEqual(step.state.value);
        if (!actor.getSnapshot().matches('editing')) continue;
        const { fields: values } = actor.getSnapshot().context;
        const at = unlockStateOf(actor.getSnapshot());
        reached.add(at);
        expect(at).toBe(JOB_FORM_FIELDS.find((f) => !jobFieldFilled(f, values)) ?? 'complete');
      }
    }
    expect([...reached].sort()).toEqual([...UNLOCK_STATES].sort());
    expect(walk.coverage.walked).toBe(walk.coverage.total);
  });
});
