import { describe, expect, it } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import type { Timeline } from '../../contract/application-timeline';
import { recordTimelineMachine, noteProblem } from './record-timeline.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
} from './testing/test-model';

const received: Timeline = {
  events: [{ kind: 'received', at: '2026-11-20T09:00:00.000Z' }],
  colleagues: [{ handle: 'ravi', name: 'Ravi Kumar' }],
};
const withNote = (text: string): Timeline => ({
  ...received,
  events: [
    ...received.events,
    { kind: 'note', at: '2026-11-21T09:00:00.000Z', by: 'Asha', note_id: 1, text, mentioned: [] },
  ],
});

function start() {
  const ctl = controlledActors(['loadTimeline', 'saveNote']);
  let saved = 0;
  const rows: unknown[] = [];
  const actor = createActor(
    recordTimelineMachine.provide({
      actors: ctl.actors as never,
      actions: { notifyNoteSaved: () => void saved++ },
    }),
    { input: { recordId: 7, maxLength: 5000 } },
  );
  actor.on('note.saved', ({ row }) => void rows.push(row));
  actor.start();
  return {
    actor,
    ctl,
    saved: () => saved,
    savedRows: () => rows,
    ctx: () => actor.getSnapshot().context,
    matches: (value: Parameters<ReturnType<typeof actor.getSnapshot>['matches']>[0]) =>
      actor.getSnapshot().matches(value),
  };
}

describe('a record timeline changed elsewhere', () => {
  it('reads the timeline again when its change events say so (a mail delivered, a colleague’s note)', async () => {
    const ctl = controlledActors(['loadTimeline', 'saveNote']);
    let tell: ((event: { type: string }) => void) | undefined;
    let watched: number | undefined;
    const actor = createActor(
      recordTimelineMachine.provide({
        actors: {
          ...(ctl.actors as object),
          changeEvents: fromCallback(({ sendBack, input }) => {
            tell = sendBack;
            watched = (input as { recordId: number }).recordId;
            return () => {};
          }),
        } as never,
      }),
      { input: { recordId: 7, maxLength: 5000 } },
    ).start();
    expect(watched).toBe(7);
    ctl.settle('loadTimeline', withNote('Queued'));
    await flush();
    tell!({ type: 'timeline.refresh' });
    expect(actor.getSnapshot().matches({ ready: { list: 'refreshing' } })).toBe(true);
    ctl.settle('loadTimeline', withNote('Sent'));
    await flush();
    expect(actor.getSnapshot().matches({ ready: { list: 'idle' } })).toBe(true);
    expect(JSON.stringify(actor.getSnapshot().context.timeline)).toContain('Sent');
  });
});

describe("a record timeline (a message's)", () => {
  it('hands the screen the record a reply changed (the message, handled at its new version)', async () => {
    const { actor, ctl, ctx, savedRows } = start();
    ctl.settle('loadTimeline', withNote('first'));
    await flush();
    actor.send({ type: 'note.change', text: 'Thank you, Tuesday at ten?' });
    actor.send({ type: 'note.submit' });
    const row = { message_id: 7, handled: true, version: 3 };
    ctl.settle('saveNote', { timeline: withNote('Thank you, Tuesday at ten?'), row });
    await flush();
    expect(ctx().draft).toBe('');
    expect(savedRows()).toEqual([row]);
  });
});

describe("a record timeline (an application's)", () => {
  it('loads the timeline of its application, and offers Retry when that fails', async () => {
    const { actor, ctl, ctx, matches } = start();
    expect(ctl.lastInput('loadTimeline')).toEqual({ recordId: 7 });
    ctl.fail('loadTimeline', Object.assign(new Error('down'), { status: 503 }));
    await flush();
    expect(matches('failed')).toBe(true);
    actor.send({ type: 'timeline.retry' });
    ctl.settle('loadTimeline', received);
    await flush();
    expect(matches('ready')).toBe(true);
    expect(ctx().timeline).toEqual(received);
  });

  it('saves a note, empties the box and shows the timeline the server answered', async () => {
    const { actor, ctl, ctx, saved, matches } = start();
    ctl.settle('loadTimeline', received);
    await flush();
    actor.send({ type: 'note.change', text: 'Strong portfolio, @ravi please review' });
    actor.send({ type: 'note.submit' });
    expect(matches({ ready: { note: 'saving' } })).toBe(true);
    expect(ctl.lastInput('saveNote')).toEqual({
      recordId: 7,
      text: 'Strong portfolio, @ravi please review',
    });
    // the text being saved does not change under the request
    actor.send({ type: 'note.change', text: 'something else' });
    expect(ctx().draft).toBe('Strong portfolio, @ravi please review');
    ctl.settle('saveNote', { timeline: withNote('Strong portfolio, @ravi please review') });
    await flush();
    expect(ctx()).toMatchObject({ draft: '', error: null });
    expect(ctx().timeline?.events).toHaveLength(2);
    expect(saved()).toBe(1);
  });

  it('refuses an empty or too long note at once, and keeps the text when the server fails', async () => {
    const { actor, ctl, ctx, matches } = start();
    ctl.settle('loadTimeline', received);
    await flush();
    actor.send({ type: 'note.change', text: '   \n ' });
    actor.send({ type: 'note.submit' });
    expect(ctx().error).toBe('noteEmpty');
    expect(matches({ ready: { note: 'editing' } })).toBe(true);
    actor.send({ type: 'note.change', text: 'x'.repeat(5001) });
    expect(ctx().error).toBeNull();
    actor.send({ type: 'note.submit' });
    expect(ctx().error).toBe('noteTooLong');
    actor.send({ type: 'note.change', text: 'Call on Monday' });
    actor.send({ type: 'note.submit' });
    ctl.fail('saveNote', Object.assign(new Error('offline'), { status: 0 }));
    await flush();
    expect(ctx()).toMatchObject({ draft: 'Call on Monday', error: 'offline' });
    actor.send({ type: 'note.submit' });
    ctl.fail('saveNote', Object.assign(new Error('Application not found'), { status: 404 }));
    await flush();
    expect(ctx().error).toBe('gone');
  });

  it('refreshes in the background, keeping what it shows until the new timeline arrives', async () => {
    const { actor, ctl, ctx, matches } = start();
    ctl.settle('loadTimeline', received);
    await flush();
    actor.send({ type: 'timeline.refresh' });
    expect(matches({ ready: { list: 'refreshing' } })).toBe(true);
    expect(ctx().timeline).toEqual(received);
    ctl.fail('loadTimeline', new Error('down'));
    await flush();
    expect(ctx().timeline).toEqual(received);
    actor.send({ type: 'timeline.refresh' });
    ctl.settle('loadTimeline', withNote('from a colleague'));
    await flush();
    expect(matches({ ready: { list: 'idle' } })).toBe(true);
    expect(ctx().timeline?.events).toHaveLength(2);
  });

  it('counts a note as the server does: trimmed, in characters not UTF-16 units', () => {
    expect(noteProblem(' ok ', 5000)).toBeNull();
    expect(noteProblem('😀'.repeat(5000), 5000)).toBeNull();
    expect(noteProblem('😀'.repeat(5001), 5000)).toBe('noteTooLong');
  });
});

describe('application timeline paths', () => {
  const events = [
    { type: 'timeline.retry' },
    { type: 'timeline.refresh' },
    { type: 'note.change', text: 'Call on Monday' },
    { type: 'note.change', text: '' },
    { type: 'note.submit' },
    { type: doneEvent('loadTimeline'), output: received },
    { type: errorEvent('loadTimeline'), error: new Error('down') },
    { type: doneEvent('refreshTimeline'), output: received },
    { type: errorEvent('refreshTimeline'), error: new Error('down') },
    { type: doneEvent('saveNote'), output: { timeline: withNote('Call on Monday') } },
    { type: errorEvent('saveNote'), error: Object.assign(new Error('down'), { status: 500 }) },
  ];
  const model = createPathModel(recordTimelineMachine, {
    events: events as never,
    input: { recordId: 7, maxLength: 5000 },
    serializeState: (snapshot: { value: unknown; context: { draft: string; error: string | null } }) =>
      JSON.stringify([snapshot.value, snapshot.context.draft, snapshot.context.error]),
  } as never);
  const walk = everyTransition(model, 'record-timeline.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThanOrEqual(10);
  });

  for (const path of walk.paths) {
    it(`no empty note is sent, and the timeline once shown stays shown: ${path.description}`, async () => {
      const { actor, ctl, ctx } = start();
      const send = ({ event }: { event: unknown }) => actor.send(event as never);
      const settle =
        (src: 'loadTimeline' | 'saveNote', ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) ctl.settle(src, e.output);
          else ctl.fail(src, e.error);
          await flush();
        };
      let shown = false;
      const check = () => {
        if (ctx().timeline) shown = true;
        else expect(shown).toBe(false);
      };
      await path.test({
        events: {
          'timeline.retry': send,
          'timeline.refresh': send,
          'note.change': send,
          'note.submit': send,
          [doneEvent('loadTimeline')]: settle('loadTimeline', true),
          [errorEvent('loadTimeline')]: settle('loadTimeline', false),
          [doneEvent('refreshTimeline')]: settle('loadTimeline', true),
          [errorEvent('refreshTimeline')]: settle('loadTimeline', false),
          [doneEvent('saveNote')]: settle('saveNote', true),
          [errorEvent('saveNote')]: settle('saveNote', false),
        },
        states: {
          '*': check,
          'ready.note.saving': () => expect(ctx().draft.trim()).not.toBe(''),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
