import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventObject } from 'xstate';
import { MONTHS, type BlogPostRow } from '../../contract/blog';
import { BLOG_MESSAGES } from '../../contract/blog-form';
import { VersionConflict } from '../../contract/versions';
import {
  blogEditorMachine,
  fieldsOf,
  type BlogDraft,
  type BlogEditorFields,
  isChanged,
  type SaveInput,
  type TextField,
} from './blog-editor.machine';
import { savingActor, type RecordEditorEvent, type SaveRequest } from './record-editor.machine';

type BlogEditorEvent = RecordEditorEvent<BlogPostRow, BlogEditorFields>;
import { createPathModel, timerEvent, everyTransition, withoutRegions } from './testing/test-model';

const TODAY = 'August 6, 2025';

const POST: BlogPostRow = {
  blog_id: 7,
  title: 'Dating an Undated Letter',
  excerpt: 'Clues from paper, ink and post.',
  content: '<p>Letters often survive without a year.</p>',
  publication_date: 'June 24, 2025',
  read_time: '6 min read',
  featured_image_url: 'blog/0b7e1d8c-3c54-4a8e-9f0e-6a1b2c3d4e5f.svg',
  image_url: '/media/blog/0b7e1d8c-3c54-4a8e-9f0e-6a1b2c3d4e5f.svg',
  status: 'Published',
  slug: 'dating-an-undated-letter',
  cover_alt: 'A letter without a year',
};

/** A save actor the test drives: `reply(event)` answers for it; `inputs` are the forms sent. */
function controlledSave() {
  const inputs: SaveInput[] = [];
  let sendBack: ((event: EventObject) => void) | null = null;
  const actor = fromCallback<EventObject, SaveRequest<BlogPostRow, BlogEditorFields, SaveInput>>(
    ({ input, sendBack: back }) => {
      // the form the save sends (the dialog it came from goes with it, for a save kept offline)
      inputs.push(input.input);
      sendBack = back;
    },
  );
  return { actor, inputs, reply: (event: BlogEditorEvent | EventObject) => sendBack!(event as EventObject) };
}

function setup() {
  const save = controlledSave();
  const effects = {
    focused: [] as string[],
    saved: [] as unknown[],
    failed: [] as unknown[],
    merged: [] as unknown[],
    forgotten: [] as number[],
    queued: 0,
    forgottenQueued: [] as (string | null)[],
  };
  const actor = createActor(
    blogEditorMachine.provide({
      actors: { save: save.actor },
      actions: {
        focusField: (_, { field }) => void effects.focused.push(field),
        notifySaved: (_, params) => void effects.saved.push(params),
        notifyFailed: (_, { error }) => void effects.failed.push(error),
        notifyMerged: (_, { changedBy }) => void effects.merged.push(changedBy),
        forgetDraft: (_, { id }) => void effects.forgotten.push(id),
        notifyQueued: () => void (effects.queued += 1),
        forgetQueued: (_, { id }) => void effects.forgottenQueued.push(id),
      },
    }),
  ).start();
  const type = (field: TextField, value: string) => actor.send({ type: 'field.change', field, value });
  const fillValid = () => {
    type('title', 'Reading a parish register');
    type('excerpt', 'What the entries say.');
    type('content', '<p>Registers record baptisms.</p>');
    type('read_time', '5 min read');
    type('featured_image_url', 'https://images.example.org/register.png');
    type('cover_alt', 'A page of a parish register');
  };
  const ctx = () => actor.getSnapshot().context;
  /** The messages the dialog shows (in English) for the codes the machine holds. */
  const shown = () =>
    Object.fromEntries(Object.entries(ctx().errors).map(([field, code]) => [field, BLOG_MESSAGES[code!]]));
  return { actor, save, effects, type, fillValid, ctx, shown };
}

const png = (size = 1000) => new File([new Uint8Array(size)], 'photo.png', { type: 'image/png' });

describe('blog editor', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens "Create New Blog Post" empty, dated today, as a Draft', () => {
    const { actor, ctx } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    expect(actor.getSnapshot().matches({ editing: { display: 'clean' } })).toBe(true);
    expect(ctx().mode).toBe('create');
    expect(ctx().fields).toEqual({
      title: '',
      excerpt: '',
      content: '',
      publication_date: TODAY,
      read_time: '',
      featured_image_url: '',
      publish: false,
      publish_at: '',
      slug: '',
      cover_alt: '',
      meta_title: '',
      meta_description: '',
      social_image_url: '',
      canonical_url: '',
      tags: '',
      author_id: '',
    });
  });

  it('schedules a post: a time to publish at makes it Scheduled, sent in UTC, and dates it that day', () => {
    const { actor, save, type, ctx, fillValid } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    const at = new Date(Date.now() + 3 * 24 * 3600_000);
    const local = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}T09:30`;
    type('publish_at', local);
    expect(ctx().fields.publication_date).toBe(
      `${MONTHS[at.getMonth()]} ${at.getDate()}, ${at.getFullYear()}`,
    );
    actor.send({ type: 'editor.submit' });
    expect(save.inputs[0]).toMatchObject({ status: 'Scheduled', publish_at: new Date(local).toISOString() });
  });

  it('refuses a time to publish at that has passed, and publishes at once when the tick is checked', () => {
    const { actor, save, type, ctx, fillValid } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    type('publish_at', '2020-01-01T09:00');
    actor.send({ type: 'editor.submit' });
    expect(ctx().errors).toEqual({ publish_at: 'schedulePast' });
    expect(save.inputs).toHaveLength(0);
    actor.send({ type: 'field.change', field: 'publish', value: true });
    actor.send({ type: 'editor.submit' });
    expect(save.inputs[0]).toMatchObject({ status: 'Published', publish_at: '' });
  });

  it('counts the read time from the text until the person types their own', () => {
    const { actor, type, ctx } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    type('content', `<p>${'word '.repeat(700)}</p>`);
    expect(ctx().fields.read_time).toBe('3 min read');
    type('content', `<p>${'word '.repeat(1200)}</p>`);
    expect(ctx().fields.read_time).toBe('5 min read');
    type('read_time', '9 min read');
    type('content', `<p>${'word '.repeat(100)}</p>`);
    expect(ctx().fields.read_time).toBe('9 min read');
  });

  it("asks for the cover's alt text when there is a cover", () => {
    const { actor, type, ctx, fillValid } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    type('cover_alt', '  ');
    actor.send({ type: 'editor.submit' });
    expect(ctx().errors).toEqual({ cover_alt: 'coverAltRequired' });
  });

  it('opens "Edit Blog Post" with every field of the post', () => {
    const { actor, ctx } = setup();
    actor.send({ type: 'editor.open', row: POST });
    expect(ctx().mode).toBe('edit');
    expect(ctx().fields).toMatchObject({
      title: POST.title,
      publication_date: 'June 24, 2025',
      publish: true,
      featured_image_url: POST.featured_image_url,
    });
  });

  it('shows every rule broken, focuses the first field, and clears the messages after 2.5 s', () => {
    const { actor, ctx, shown, effects } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: '' } });
    actor.send({ type: 'editor.submit' });
    expect(actor.getSnapshot().matches({ editing: { display: 'invalid' } })).toBe(true);
    expect(shown()).toEqual({
      title: 'Title is required',
      excerpt: 'Excerpt is required',
      content: 'Content is required',
      publication_date: 'Publication date is required',
      read_time: 'Read time is required',
      featured_image: 'Featured image is required',
    });
    expect(effects.focused).toEqual(['title']);
    vi.advanceTimersByTime(2499);
    expect(shown().title).toBe('Title is required');
    vi.advanceTimersByTime(1);
    expect(ctx().errors).toEqual({});
    expect(actor.getSnapshot().matches({ editing: { display: 'clean' } })).toBe(true);
  });

  it('shows the 2.5 s again from the latest submit', () => {
    const { actor, shown } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    actor.send({ type: 'editor.submit' });
    vi.advanceTimersByTime(2000);
    actor.send({ type: 'editor.submit' });
    vi.advanceTimersByTime(2000);
    expect(shown().title).toBe('Title is required');
  });

  it.each([
    ['read_time', '5 mins read', "Format should be 'X min read' (e.g., '5 min read')"],
    ['title', 'x'.repeat(100), 'Title must be less than 100 characters'],
    ['excerpt', 'x'.repeat(200), 'Excerpt must be less than 200 characters'],
    ['content', '<p> </p>', 'Content is required'],
    ['publication_date', 'February 30, 2025', 'Publication date is not a valid date'],
    ['featured_image_url', 'javascript:alert(1)', 'Image URL must start with http:// or https://'],
  ] as const)('refuses %s = %j with "%s"', (field, value, message) => {
    const { actor, shown, fillValid, type, effects } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    type(field, value);
    actor.send({ type: 'editor.submit' });
    expect(shown()).toEqual({ [field === 'featured_image_url' ? 'featured_image' : field]: message });
    expect(effects.focused).toEqual([field === 'featured_image_url' ? 'featured_image' : field]);
  });

  it('refuses a chosen file that is not an image: "Please upload a valid image file"', () => {
    const { actor, ctx } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    actor.send({ type: 'file.choose', file: new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }) });
    expect(ctx().file).toBeNull();
    expect(ctx().errors.featured_image).toBe('imageInvalidFile');
  });

  it('refuses an image over 5 MB when saving', () => {
    const { actor, ctx, fillValid } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    actor.send({ type: 'file.choose', file: png(5 * 1024 * 1024 + 1) });
    actor.send({ type: 'editor.submit' });
    expect(ctx().errors.featured_image).toBe('imageTooLarge');
  });

  it('sends a new post as a Draft unless "Publish immediately" is checked, with the file instead of the address', () => {
    const { actor, save, fillValid } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    const file = png();
    actor.send({ type: 'file.choose', file });
    actor.send({ type: 'editor.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    expect(save.inputs[0]).toMatchObject({
      mode: 1,
      blog_id: 0,
      status: 'Draft',
      featured_image_url: '',
      featured_image: file,
    });
    save.reply({ type: 'save.failed', error: new Error('x') });
    actor.send({ type: 'field.change', field: 'publish', value: true });
    actor.send({ type: 'editor.submit' });
    expect(save.inputs[1]).toMatchObject({ status: 'Published' });
  });

  it('shows the upload progress while saving', () => {
    const { actor, save, fillValid, ctx } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    actor.send({ type: 'editor.submit' });
    expect(ctx().progress).toBe(0);
    save.reply({ type: 'upload.progress', loaded: 512, total: 1024 });
    expect(ctx().progress).toBe(0.5);
  });

  it('closes and resets after a save, telling the list the new row', () => {
    const { actor, save, fillValid, ctx, effects } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    actor.send({ type: 'editor.submit' });
    const row = { ...POST, blog_id: 99 };
    save.reply({ type: 'save.succeeded', answer: { message: 'Post Created', row } });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(effects.saved).toEqual([{ row, created: true, message: 'Post Created' }]);
    expect(ctx().fields.title).toBe('');
    expect(ctx().progress).toBeNull();
  });

  it('keeps everything typed when the server refuses, with its field messages', () => {
    const { actor, save, fillValid, ctx, effects } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    actor.send({ type: 'editor.submit' });
    const error = Object.assign(new Error('Please upload a valid image file'), {
      status: 415,
      errors: { featured_image: 'Please upload a valid image file' },
      codes: { featured_image: 'imageInvalidFile' },
    });
    save.reply({ type: 'save.failed', error });
    expect(actor.getSnapshot().matches({ editing: { display: 'invalid' } })).toBe(true);
    expect(ctx().fields.title).toBe('Reading a parish register');
    expect(ctx().errors).toEqual({ featured_image: 'imageInvalidFile' });
    expect(effects.failed).toEqual([error]);
  });

  it('updates a post keeping its stored image (mode 2 with the key)', () => {
    const { actor, save } = setup();
    actor.send({ type: 'editor.open', row: POST });
    actor.send({ type: 'editor.submit' });
    expect(save.inputs[0]).toMatchObject({
      mode: 2,
      blog_id: 7,
      status: 'Published',
      featured_image_url: POST.featured_image_url,
      featured_image: null,
    });
  });

  it('Cancel closes and forgets the form', () => {
    const { actor, ctx, fillValid } = setup();
    actor.send({ type: 'editor.open', defaults: { publication_date: TODAY } });
    fillValid();
    actor.send({ type: 'editor.cancel' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(ctx().fields.title).toBe('');
  });

  it('a backdrop click or Escape closes an unchanged dialog, and asks before throwing away a change', () => {
    const { actor, ctx } = setup();
    actor.send({ type: 'editor.open', row: POST });
    actor.send({ type: 'editor.dismiss' });
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'editor.open', row: POST });
    actor.send({ type: 'field.change', field: 'title', value: 'A better title' });
    actor.send({ type: 'editor.dismiss' });
    expect(actor.getSnapshot().value).toBe('confirmingDiscard');
    actor.send({ type: 'discard.cancel' });
    expect(ctx().fields.title).toBe('A better title');
    actor.send({ type: 'editor.dismiss' });
    actor.send({ type: 'discard.confirm' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(ctx().fields.title).toBe('');
  });

  it('counts a chosen image, a flipped Publish box and changed content text as changes, not re-wrapped markup', () => {
    const opened = fieldsOf(POST);
    expect(isChanged({ fields: opened, opened, file: null })).toBe(false);
    expect(
      isChanged({ fields: { ...opened, content: `${opened.content}<p></p>` }, opened, file: null }),
    ).toBe(false);
    expect(isChanged({ fields: { ...opened, publish: !opened.publish }, opened, file: null })).toBe(true);
    expect(isChanged({ fields: opened, opened, file: new File(['x'], 'a.png', { type: 'image/png' }) })).toBe(
      true,
    );
    expect(
      isChanged({ fields: { ...opened, content: `${opened.content}<p>More</p>` }, opened, file: null }),
    ).toBe(true);
  });

  it('savingActor turns a promise with progress into the machine events', async () => {
    vi.useRealTimers();
    const progress: (number | null)[] = [];
    const logic = savingActor<BlogPostRow, BlogEditorFields, SaveInput>(async (_input, onProgress) => {
      onProgress(5, 10);
      await new Promise((r) => setTimeout(r, 0));
      return { message: 'Post Updated' };
    });
    const editor = createActor(blogEditorMachine.provide({ actors: { save: logic } })).start();
    editor.subscribe((snapshot) => progress.push(snapshot.context.progress));
    editor.send({ type: 'editor.open', row: POST });
    editor.send({ type: 'editor.submit' });
    await new Promise((r) => setTimeout(r, 10));
    expect(progress).toContain(0.5);
    expect(editor.getSnapshot().value).toBe('closed');
  });
});

describe('blog editor drafts on the device', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function withDrafts(found: BlogDraft | null) {
    const written: BlogEditorFields[] = [];
    const forgotten: unknown[] = [];
    const actor = createActor(
      blogEditorMachine.provide({
        actors: {
          readDraft: fromPromise(async () => found),
          writeDraft: fromPromise(async ({ input }) => void written.push(input.values)),
        },
        actions: { forgetDraft: (_, ref) => void forgotten.push(ref) },
      }),
    ).start();
    return { actor, written, forgotten };
  }

  it('keeps the text on the device 2 s after the first change, and a flipped Publish box too', async () => {
    const { actor, written } = withDrafts(null);
    actor.send({ type: 'editor.open', row: POST });
    actor.send({ type: 'field.change', field: 'title', value: 'A longer title' });
    actor.send({ type: 'field.change', field: 'publish', value: false });
    await vi.advanceTimersByTimeAsync(1999);
    expect(written).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(written).toEqual([{ ...fieldsOf(POST), title: 'A longer title', publish: false }]);
  });

  it('does not offer its own autosaved draft when the person comes back to the form (Keep editing)', async () => {
    // the device holds what this very dialog autosaved a moment ago, older than what is typed now
    let found: BlogDraft | null = null;
    const written: BlogEditorFields[] = [];
    let reads = 0;
    const actor = createActor(
      blogEditorMachine.provide({
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
    actor.send({ type: 'editor.open', row: POST });
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'field.change', field: 'title', value: 'A longer title' });
    await vi.advanceTimersByTimeAsync(2000); // autosaved
    actor.send({ type: 'field.change', field: 'title', value: 'A longer title, typed on' });
    actor.send({ type: 'editor.dismiss' });
    expect(actor.getSnapshot().value).toBe('confirmingDiscard');
    actor.send({ type: 'discard.cancel' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ editing: { restore: 'none' } })).toBe(true);
    expect(actor.getSnapshot().context.draft).toBeNull();
    expect(reads).toBe(1);
    // and what was typed just before Escape is kept on the device too
    await vi.advanceTimersByTimeAsync(2000);
    expect(written.at(-1)?.title).toBe('A longer title, typed on');
    // opened again later, the dialog looks for the draft again
    actor.send({ type: 'editor.cancel' });
    actor.send({ type: 'editor.open', row: POST });
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toBe(2);
  });

  it('offers a different draft of the post; Restore fills the dialog; Cancel removes the draft', async () => {
    const draft = {
      values: { ...fieldsOf(POST), content: '<p>Much more text.</p>' },
      savedAt: '2026-11-25T09:00:00.000Z',
    };
    const { actor, forgotten } = withDrafts(draft);
    actor.send({ type: 'editor.open', row: POST });
    await vi.waitFor(() =>
      expect(actor.getSnapshot().matches({ editing: { restore: 'offering' } })).toBe(true),
    );
    actor.send({ type: 'draft.restore' });
    expect(actor.getSnapshot().context.fields.content).toBe('<p>Much more text.</p>');
    actor.send({ type: 'editor.cancel' });
    expect(forgotten).toEqual([{ id: POST.blog_id }]);
  });
});

describe('blog editor conflicts (docs/decisions/022)', () => {
  const OPENED: BlogPostRow = { ...POST, version: 3 };
  /** Someone else's save: the post as it is now, by Asha at 10:42. */
  const theirs = (change: Partial<BlogPostRow>) =>
    new VersionConflict<BlogPostRow>({
      current: { ...OPENED, ...change, version: 4 },
      changedBy: 'asha@example.com',
      changedAt: '2026-11-27T10:42:00.000Z',
    });

  it('an edit sends the version it opened and only the fields the person changed', () => {
    const { actor, save, type } = setup();
    actor.send({ type: 'editor.open', row: OPENED });
    type('read_time', '7 min read');
    actor.send({ type: 'field.change', field: 'publish', value: false });
    actor.send({ type: 'editor.submit' });
    // the status and its time go together (a Scheduled post has one, the others none)
    expect(save.inputs[0]).toMatchObject({
      mode: 2,
      version: 3,
      changed: ['read_time', 'status', 'publish_at'],
    });
  });

  it('a stale "Publish immediately" tick is never sent: their unpublishing stays, my read time is saved with it', () => {
    const { actor, save, type, ctx, effects } = setup();
    actor.send({ type: 'editor.open', row: OPENED });
    type('read_time', '3 min read');
    actor.send({ type: 'editor.submit' });
    expect(save.inputs[0].changed).toEqual(['read_time']);
    // the owner took the post offline meanwhile
    save.reply({ type: 'save.failed', error: theirs({ status: 'Draft' }) });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(save.inputs[1]).toMatchObject({
      version: 4,
      changed: ['read_time'],
      status: 'Draft',
      read_time: '3 min read',
    });
    expect(ctx().fields.publish).toBe(false);
    expect(effects.merged).toEqual(['asha@example.com']);
  });

  it('when both changed a field, waits with theirs beside mine; keep mine saves mine on their version', () => {
    const { actor, save, type, ctx } = setup();
    actor.send({ type: 'editor.open', row: OPENED });
    type('title', 'My title');
    type('read_time', '4 min read');
    actor.send({ type: 'editor.submit' });
    save.reply({ type: 'save.failed', error: theirs({ title: 'Their title', excerpt: 'Their excerpt.' }) });
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
    expect(ctx().conflict).toMatchObject({ fields: ['title'], changedBy: 'asha@example.com', version: 4 });
    // nothing typed is lost while the choice waits; their other change is taken
    expect(ctx().fields).toMatchObject({
      title: 'My title',
      read_time: '4 min read',
      excerpt: 'Their excerpt.',
    });
    expect(actor.getSnapshot().can({ type: 'conflict.keepBoth' })).toBe(false);
    actor.send({ type: 'conflict.keepMine' });
    expect(save.inputs[1]).toMatchObject({ version: 4, changed: ['title', 'read_time'], title: 'My title' });
  });

  it('take theirs puts their text in the fields both changed and goes back to the form', () => {
    const { actor, save, type, ctx, effects } = setup();
    actor.send({ type: 'editor.open', row: OPENED });
    type('title', 'My title');
    type('read_time', '4 min read');
    actor.send({ type: 'editor.submit' });
    save.reply({ type: 'save.failed', error: theirs({ title: 'Their title' }) });
    actor.send({ type: 'conflict.takeTheirs' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(ctx().fields).toMatchObject({ title: 'Their title', read_time: '4 min read' });
    expect(ctx().version).toBe(4);
    expect(effects.forgotten).toEqual([7]);
  });

  it('keep both puts their content, then mine, in the editor to merge by hand', () => {
    const { actor, save, type, ctx } = setup();
    actor.send({ type: 'editor.open', row: OPENED });
    type('content', '<p>Mine.</p>');
    actor.send({ type: 'editor.submit' });
    save.reply({ type: 'save.failed', error: theirs({ content: '<p>Theirs.</p>' }) });
    expect(actor.getSnapshot().can({ type: 'conflict.keepBoth' })).toBe(true);
    actor.send({ type: 'conflict.keepBoth' });
    expect(ctx().fields.content).toBe('<p>Theirs.</p><p>Mine.</p>');
    expect(ctx().conflict).toBeNull();
  });

  describe('a save made without a connection', () => {
    const change = {
      id: 'queued-post-1',
      recordId: OPENED.blog_id,
      version: OPENED.version ?? null,
      original: OPENED,
      base: fieldsOf(OPENED),
      values: { ...fieldsOf(OPENED), title: 'My title' },
      file: null,
    };

    it('is kept on the device: the dialog closes saying it waits, and its draft goes', () => {
      const { actor, save, type, effects } = setup();
      actor.send({ type: 'editor.open', row: OPENED });
      type('title', 'My title');
      actor.send({ type: 'editor.submit' });
      save.reply({ type: 'save.queued', id: 'k1' });
      expect(actor.getSnapshot().matches('closed')).toBe(true);
      expect(effects.queued).toBe(1);
      expect(effects.saved).toEqual([]);
      expect(effects.forgotten).toEqual([7]);
    });

    it('that met their change to the same field is taken up in the conflict view, and removed from the queue once saved', () => {
      const { actor, save, effects, ctx } = setup();
      actor.send({ type: 'editor.resume', change });
      // sent again on the version it was based on, with only what it changed
      expect(actor.getSnapshot().matches('submitting')).toBe(true);
      expect(save.inputs.at(-1)).toMatchObject({ mode: 2, blog_id: 7, version: 3, changed: ['title'] });
      save.reply({ type: 'save.failed', error: theirs({ title: 'Their title' }) });
      expect(actor.getSnapshot().matches('conflict')).toBe(true);
      expect(ctx().conflict).toMatchObject({ fields: ['title'], theirs: { title: 'Their title' } });
      expect(ctx().fields.title).toBe('My title');
      actor.send({ type: 'conflict.keepMine' });
      expect(save.inputs.at(-1)).toMatchObject({ version: 4, title: 'My title' });
      save.reply({
        type: 'save.succeeded',
        answer: { message: 'Post Updated', row: { ...OPENED, version: 5 } },
      });
      expect(effects.forgottenQueued).toEqual(['queued-post-1']);
    });

    it('cancelled in the conflict view stays in the queue for later', () => {
      const { actor, save, effects } = setup();
      actor.send({ type: 'editor.resume', change });
      save.reply({ type: 'save.failed', error: theirs({ title: 'Their title' }) });
      actor.send({ type: 'editor.cancel' });
      expect(actor.getSnapshot().matches('closed')).toBe(true);
      expect(effects.forgottenQueued).toEqual([]);
    });
  });

  it('Cancel in the conflict view closes the dialog', () => {
    const { actor, save, type } = setup();
    actor.send({ type: 'editor.open', row: OPENED });
    type('title', 'My title');
    actor.send({ type: 'editor.submit' });
    save.reply({ type: 'save.failed', error: theirs({ title: 'Their title' }) });
    actor.send({ type: 'editor.cancel' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
  });
});

describe('blog editor paths', () => {
  const ROW = { ...POST, blog_id: 99 };
  const events = [
    { type: 'editor.open', defaults: { publication_date: TODAY } },
    { type: 'editor.open', row: POST },
    { type: 'editor.submit' },
    { type: 'editor.cancel' },
    { type: 'editor.dismiss' },
    { type: 'discard.confirm' },
    { type: 'discard.cancel' },
    { type: 'field.change', field: 'title', value: '' },
    { type: 'field.change', field: 'title', value: 'Mine' },
    { type: 'file.choose', file: null },
    { type: timerEvent('errorDisplay') },
    { type: 'save.succeeded', answer: { message: 'Post Updated', row: ROW } },
    { type: 'save.failed', error: new Error('down') },
    {
      type: 'save.failed',
      error: new VersionConflict({
        current: { ...POST, title: 'Theirs', version: 2 },
        changedBy: 'asha@example.com',
        changedAt: null,
      }),
    },
    { type: 'conflict.keepMine' },
    { type: 'conflict.takeTheirs' },
    { type: 'conflict.keepBoth' },
    {
      type: 'editor.resume',
      change: {
        id: 'q1',
        recordId: POST.blog_id,
        version: POST.version ?? null,
        original: POST,
        base: fieldsOf(POST),
        values: { ...fieldsOf(POST), title: 'Mine' },
        file: null,
      },
    },
    { type: 'save.queued', id: 'q1' },
  ];
  // without the draft regions (restore, autosave): their actors and timer have their own tests
  const model = createPathModel(
    withoutRegions(blogEditorMachine, 'editing', ['restore', 'autosave', 'choices']),
    {
      events: events as never,
      serializeState: (snapshot: { value: unknown; context: { mode: string; fields: { title: string } } }) =>
        JSON.stringify([snapshot.value, snapshot.context.mode, snapshot.context.fields.title]),
    } as never,
  );
  const walk = everyTransition(model, 'blog-editor.machine', events);
  const paths = walk.paths;

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  it('reaches every state', () => {
    const reached = new Set(
      paths.flatMap((p) => [p.state, ...p.steps.map((s) => s.state)].map((s) => JSON.stringify(s.value))),
    );
    expect(reached).toEqual(
      new Set([
        '"closed"',
        '"confirmingDiscard"',
        '{"editing":{"display":"clean"}}',
        '{"editing":{"display":"invalid"}}',
        '"submitting"',
        '"conflict"',
      ]),
    );
  });

  for (const path of paths) {
    it(`keeps the dialog's promises: ${path.description}`, async () => {
      vi.useFakeTimers();
      const { actor, save, ctx } = setup();
      const send = ({ event }: { event: unknown }) => actor.send(event as BlogEditorEvent);
      await path.test({
        events: {
          'editor.open': send,
          'editor.submit': send,
          'editor.cancel': send,
          'editor.dismiss': send,
          'discard.confirm': send,
          'discard.cancel': send,
          'field.change': send,
          'file.choose': send,
          [timerEvent('errorDisplay')]: () => void vi.advanceTimersByTime(2500),
          'save.succeeded': ({ event }) => save.reply(event as EventObject),
          'save.failed': ({ event }) => save.reply(event as EventObject),
          'conflict.keepMine': send,
          'conflict.takeTheirs': send,
          'conflict.keepBoth': send,
          'editor.resume': send,
          'save.queued': ({ event }) => save.reply(event as EventObject),
        },
        states: {
          closed: () => {
            expect(ctx().fields.title).toBe('');
            expect(ctx().errors).toEqual({});
          },
          'editing.display.clean': () => expect(ctx().errors).toEqual({}),
          'editing.display.invalid': () => expect(Object.keys(ctx().errors).length).toBeGreaterThan(0),
          confirmingDiscard: () => expect(isChanged(ctx())).toBe(true),
          conflict: () => expect(ctx().conflict?.fields).toEqual(['title']),
          submitting: () => {
            expect(ctx().progress).toBe(0);
            expect(save.inputs.at(-1)?.title).toBe(ctx().fields.title);
          },
        },
      });
      vi.useRealTimers();
    });
  }
});
