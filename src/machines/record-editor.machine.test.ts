import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, type EventObject } from 'xstate';
import { VersionConflict } from '../../contract/versions';
import {
  changedOf,
  meetTheirs,
  recordEditor,
  recordEditorMachine,
  type NoteFields,
  type NoteRow,
  type RecordDraft,
  type RecordEditorEvent,
  type SaveRequest,
} from './record-editor.machine';
import { createPathModel, everyTransition, timerEvent, withoutRegions } from './testing/test-model';

const NOTE: NoteRow = { id: 4, title: 'Minutes', text: 'We met on Monday.', version: 2 };
type NoteEvent = RecordEditorEvent<NoteRow, NoteFields>;
const read = (_: string, value: string) => value.trim();

/** The base editor with a save the test answers (`reply`) and its effects recorded. */
function setup(found: RecordDraft<NoteFields> | null = null) {
  let reply: ((event: EventObject) => void) | null = null;
  const sent: unknown[] = [];
  const effects = { saved: [] as unknown[], failed: 0, forgotten: [] as number[], focused: [] as string[] };
  const written: NoteFields[] = [];
  const actor = createActor(
    recordEditorMachine.provide({
      actors: {
        save: fromCallback<EventObject, SaveRequest<NoteRow, NoteFields, NoteFields>>(
          ({ input, sendBack }) => {
            sent.push(input.input);
            reply = sendBack;
          },
        ),
        readDraft: fromPromise(async () => found),
        writeDraft: fromPromise(async ({ input }) => void written.push(input.values)),
      },
      actions: {
        notifySaved: (_, params) => void effects.saved.push(params),
        notifyFailed: () => void (effects.failed += 1),
        forgetDraft: (_, { id }) => void effects.forgotten.push(id),
        focusField: (_, { field }) => void effects.focused.push(field),
      },
    }),
  ).start();
  const send = (event: NoteEvent) => actor.send(event);
  return {
    actor,
    send,
    sent,
    effects,
    written,
    reply: (event: NoteEvent | EventObject) => reply!(event as EventObject),
  };
}

const theirs = (over: Partial<NoteRow>) =>
  new VersionConflict<NoteRow>({
    current: { ...NOTE, ...over, version: 3 },
    changedBy: 'amara@example.org',
    changedAt: '2026-12-07T09:00:00.000Z',
  });

describe("the rules of a save that meets someone else's", () => {
  it('reads a change as a person would: spaces around a value are not a change', () => {
    expect(
      changedOf(['title', 'text'], read, { title: ' Minutes ', text: 'x' }, { title: 'Minutes', text: 'y' }),
    ).toEqual(['text']);
  });

  it('takes their value where only they changed, keeps mine where only I did, and names the fields both changed', () => {
    const opened = { title: 'A', text: 'a', extra: '1' };
    const mine = { title: 'Mine', text: 'a', extra: 'mine' };
    const their = { title: 'A', text: 'theirs', extra: 'theirs' };
    expect(meetTheirs(['title', 'text', 'extra'], read, mine, opened, their)).toEqual({
      merged: { title: 'Mine', text: 'theirs', extra: 'mine' },
      both: ['extra'],
    });
  });
});

describe('record editor', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sets a field and keeps it on the device in the same step (a region that hears a change does not hide it from the form)', async () => {
    const { actor, send, written } = setup();
    send({ type: 'editor.open', row: NOTE });
    send({ type: 'field.change', field: 'title', value: 'Minutes of Monday' });
    expect(actor.getSnapshot().context.fields.title).toBe('Minutes of Monday');
    await vi.advanceTimersByTimeAsync(2000);
    expect(written).toEqual([{ title: 'Minutes of Monday', text: NOTE.text }]);
  });

  it('opens a new record with its defaults, and an unchanged one closes at once on Escape', () => {
    const { actor, send, effects } = setup();
    send({ type: 'editor.open', defaults: { title: 'Untitled' } });
    expect(actor.getSnapshot().context).toMatchObject({
      mode: 'create',
      recordId: 0,
      fields: { title: 'Untitled' },
    });
    send({ type: 'editor.dismiss' });
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(effects.forgotten).toEqual([0]);
  });

  it('refuses a form that breaks a rule, focuses the field and shows the error for a while', () => {
    const { actor, send, effects } = setup();
    send({ type: 'editor.open' });
    send({ type: 'editor.submit' });
    expect(actor.getSnapshot().context.errors).toEqual({ title: 'required' });
    expect(effects.focused).toEqual(['title']);
    vi.advanceTimersByTime(2500);
    expect(actor.getSnapshot().context.errors).toEqual({});
  });

  it('shows the fields a refusal names like its own errors, and keeps what was typed', () => {
    const { actor, send, reply, effects } = setup();
    send({ type: 'editor.open', row: NOTE });
    send({ type: 'field.change', field: 'title', value: 'New' });
    send({ type: 'editor.submit' });
    // the base editor has no `serverErrors`: a refusal is a failure the form keeps through
    reply({
      type: 'save.failed',
      error: Object.assign(new Error('refused'), { codes: { title: 'required' } }),
    });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(actor.getSnapshot().context.fields.title).toBe('New');
    expect(effects.failed).toBe(1);
  });

  it("meets their change: mine kept, theirs beside it; 'Keep both' joins only a joinable field", () => {
    const { actor, send, reply } = setup();
    send({ type: 'editor.open', row: NOTE });
    send({ type: 'field.change', field: 'title', value: 'My title' });
    send({ type: 'field.change', field: 'text', value: 'My text.' });
    send({ type: 'editor.submit' });
    reply({ type: 'save.failed', error: theirs({ title: 'Their title', text: 'Their text.' }) });
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
    expect(actor.getSnapshot().context.conflict?.fields).toEqual(['title', 'text']);
    send({ type: 'conflict.keepBoth' });
    expect(actor.getSnapshot().context.fields).toEqual({ title: 'My title', text: 'Their text.My text.' });
  });

  it('saves again at once on their version when they changed other fields only', () => {
    const { send, reply, sent, effects } = setup();
    send({ type: 'editor.open', row: NOTE });
    send({ type: 'field.change', field: 'title', value: 'My title' });
    send({ type: 'editor.submit' });
    reply({ type: 'save.failed', error: theirs({ text: 'Their text.' }) });
    expect(sent.at(-1)).toEqual({ title: 'My title', text: 'Their text.' });
    reply({ type: 'save.succeeded', answer: { message: 'Saved', row: { ...NOTE, version: 4 } } });
    expect(effects.saved).toEqual([{ row: { ...NOTE, version: 4 }, created: false, message: 'Saved' }]);
  });

  it('offers a draft that differs from the form once, not again on coming back to it', async () => {
    const { actor, send } = setup({
      values: { title: 'Typed before', text: NOTE.text },
      savedAt: '2026-12-07T08:00:00Z',
    });
    send({ type: 'editor.open', row: NOTE });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ editing: { restore: 'offering' } })).toBe(true);
    send({ type: 'draft.restore' });
    expect(actor.getSnapshot().context.fields.title).toBe('Typed before');
    send({ type: 'editor.dismiss' });
    send({ type: 'discard.cancel' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().matches({ editing: { restore: 'none' } })).toBe(true);
  });

  it('has the regions its options ask for, and no others', () => {
    const base = recordEditorMachine.config as unknown as { states: { editing: { states: object } } };
    expect(Object.keys(base.states.editing.states)).toEqual(['display', 'restore', 'autosave']);
    const both = recordEditor<NoteRow, NoteFields, keyof NoteFields, 'required', string[], NoteFields>({
      id: 'both',
      fields: ['title', 'text'],
      empty: { title: '', text: '' },
      fieldsOf: ({ title, text }) => ({ title, text }),
      idOf: (row) => row.id,
      read: (_f, v) => v,
      errorsOf: () => ({}),
      errorFields: ['title', 'text'],
      joinable: () => false,
      saveInput: ({ fields }) => fields,
      choices: [],
      unlock: (field, fields) => fields[field] !== '',
    });
    const editing = (
      both.config as unknown as { states: { editing: { states: Record<string, { states: object }> } } }
    ).states.editing.states;
    expect(Object.keys(editing)).toEqual(['display', 'restore', 'autosave', 'choices', 'unlock']);
    expect(Object.keys(editing.unlock.states)).toEqual(['title', 'text', 'complete']);
  });
});

describe('record editor paths', () => {
  const events = [
    { type: 'editor.open' },
    { type: 'editor.open', row: NOTE },
    { type: 'field.change', field: 'title', value: '' },
    { type: 'field.change', field: 'title', value: 'Mine' },
    { type: 'editor.submit' },
    { type: 'editor.cancel' },
    { type: 'editor.dismiss' },
    { type: 'discard.confirm' },
    { type: 'discard.cancel' },
    { type: timerEvent('errorDisplay') },
    { type: 'save.succeeded', answer: { message: 'Saved', row: NOTE } },
    { type: 'save.failed', error: new Error('down') },
    { type: 'save.failed', error: theirs({ title: 'Theirs' }) },
    { type: 'save.queued', id: 'q1' },
    { type: 'conflict.keepMine' },
    { type: 'conflict.takeTheirs' },
    {
      type: 'editor.resume',
      change: {
        id: 'q1',
        recordId: NOTE.id,
        version: 2,
        original: NOTE,
        base: { title: NOTE.title, text: NOTE.text },
        values: { title: 'Mine', text: NOTE.text },
        file: null,
      },
    },
  ];
  // the draft regions have their own tests above: their actors and timer would multiply every path
  const model = createPathModel(withoutRegions(recordEditorMachine, 'editing', ['restore', 'autosave']), {
    events: events as never,
    serializeState: (snapshot: { value: unknown; context: { mode: string; fields: NoteFields } }) =>
      JSON.stringify([snapshot.value, snapshot.context.mode, snapshot.context.fields.title]),
  } as never);
  const walk = everyTransition(model, 'record-editor.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  for (const path of walk.paths) {
    it(`keeps its promises: ${path.description}`, async () => {
      vi.useFakeTimers();
      const { actor, reply, sent } = setup();
      const send = ({ event }: { event: unknown }) => actor.send(event as NoteEvent);
      const answer = ({ event }: { event: unknown }) => reply(event as EventObject);
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
          [timerEvent('errorDisplay')]: () => void vi.advanceTimersByTime(2500),
          'save.succeeded': answer,
          'save.failed': answer,
          'save.queued': answer,
          'conflict.keepMine': send,
          'conflict.takeTheirs': send,
        },
        states: {
          closed: () => expect(actor.getSnapshot().context.fields).toEqual({ title: '', text: '' }),
          'editing.display.clean': () => expect(actor.getSnapshot().context.errors).toEqual({}),
          'editing.display.invalid': () =>
            expect(actor.getSnapshot().context.errors).toEqual({ title: 'required' }),
          submitting: () => expect(sent.at(-1)).toEqual(actor.getSnapshot().context.fields),
          conflict: () => expect(actor.getSnapshot().context.conflict?.fields).toEqual(['title']),
        },
      });
      vi.useRealTimers();
    });
  }
});
