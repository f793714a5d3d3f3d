import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise, waitFor } from 'xstate';
import { queuedChanges, type QueuedChangesContext, type QueuedChangesEvent } from './queued-changes.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
} from './testing/test-model';

interface Change {
  id: string;
  title: string;
}
const machine = queuedChanges<Change>();

function start(kept: Record<string, Change> = { 'queued-1': { id: 'queued-1', title: 'Copy Editor' } }) {
  let tell: ((e: QueuedChangesEvent) => void) | undefined;
  const read = vi.fn();
  const gone = vi.fn();
  const actor = createActor(
    machine.provide({
      actors: {
        listen: fromCallback(({ sendBack }) => {
          tell = sendBack;
        }),
        readChange: fromPromise(async ({ input }) => {
          read(input.id, input.picked);
          return kept[input.id] ?? null;
        }),
      },
      actions: { notifyGone: gone },
    }),
  ).start();
  return { actor, tell: (e: QueuedChangesEvent) => tell!(e), read, gone };
}

describe("a person's changes kept in the send queue", () => {
  it("one that met someone else's is read from the queue and held until the screen hands it to its editor", async () => {
    const { actor, tell, read } = start();
    tell({ type: 'queued.conflict', id: 'queued-1' });
    expect(actor.getSnapshot().value).toBe('reading');
    await waitFor(actor, (s) => s.matches('holding'));
    expect(read).toHaveBeenCalledWith('queued-1', false);
    expect(actor.getSnapshot().context.takingUp).toEqual({ id: 'queued-1', title: 'Copy Editor' });
    // another arrives while one is held: the first is handed over first
    tell({ type: 'queued.conflict', id: 'queued-2' });
    expect(read).toHaveBeenCalledTimes(1);
    actor.send({ type: 'queued.taken' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.takingUp).toBeNull();
  });

  it('Resolve in "Waiting to send" takes one up the same way', async () => {
    const { actor } = start();
    actor.send({ type: 'queued.resolve', id: 'queued-1' });
    await waitFor(actor, (s) => s.matches('holding'));
    expect(actor.getSnapshot().context.takingUp?.title).toBe('Copy Editor');
  });

  it('one no longer on the device says so and holds nothing', async () => {
    const { actor, gone } = start({});
    actor.send({ type: 'queued.resolve', id: 'queued-9' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(gone).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.takingUp).toBeNull();
  });

  it('one heard of that another tab took is left to it, quietly; the person picking it here takes it', async () => {
    const { actor, tell, read, gone } = start({});
    tell({ type: 'queued.conflict', id: 'queued-7' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(read).toHaveBeenCalledWith('queued-7', false);
    expect(gone).not.toHaveBeenCalled();
  });

  it('tells its parent when one was sent, so the screen loads its list again', async () => {
    const heard = vi.fn();
    let tell: ((e: QueuedChangesEvent) => void) | undefined;
    const parent = createActor(
      createMachine({
        invoke: {
          id: 'queued',
          src: machine.provide({
            actors: {
              listen: fromCallback(({ sendBack }) => {
                tell = sendBack;
              }),
            },
          }),
        },
        on: { 'queued.sent': { actions: heard } },
      }),
    ).start();
    tell!({ type: 'queued.sent' });
    expect(heard).toHaveBeenCalledTimes(1);
    parent.stop();
  });
});

describe('queued changes paths', () => {
  const CHANGE = { id: 'queued-1', title: 'Copy Editor' };
  const events = [
    { type: 'queued.conflict', id: 'queued-1' },
    { type: 'queued.resolve', id: 'queued-1' },
    { type: 'queued.taken' },
    { type: 'queued.sent' },
    { type: doneEvent('readChange'), output: CHANGE },
    { type: doneEvent('readChange'), output: null },
    { type: errorEvent('readChange'), error: new Error('IndexedDB unavailable') },
  ];
  // the model has no parent: telling it of a sent change is checked above
  const model = createPathModel(machine.provide({ actions: { tellParent: () => {} } }), {
    events: events as never,
    serializeState: (state: { value: unknown; context: QueuedChangesContext<Change> }) =>
      JSON.stringify([state.value, state.context.asked?.picked ?? null, state.context.takingUp !== null]),
  } as never);
  const walk = everyTransition(model, 'queued-changes.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(0);
  });

  for (const path of walk.paths) {
    it(`holds a change exactly until it is handed on, and says "gone" only when the person picked it: ${path.steps.map((s) => s.event.type).join(' → ')}`, async () => {
      const control = controlledActors(['readChange']);
      const gone = vi.fn();
      const actor = createActor(
        machine.provide({
          actors: { readChange: control.actors.readChange as never },
          actions: { notifyGone: gone },
        }),
      ).start();
      let picked = false;
      await path.test({
        events: {
          'queued.conflict': ({ event }) => {
            picked = false;
            actor.send(event as QueuedChangesEvent);
          },
          'queued.resolve': ({ event }) => {
            picked = true;
            actor.send(event as QueuedChangesEvent);
          },
          'queued.taken': ({ event }) => actor.send(event as QueuedChangesEvent),
          'queued.sent': () => {},
          [doneEvent('readChange')]: async ({ event }: { event: unknown }) => {
            const output = (event as { output: unknown }).output;
            const before = gone.mock.calls.length;
            control.settle('readChange', output);
            await flush();
            expect(gone.mock.calls.length - before).toBe(output === null && picked ? 1 : 0);
          },
          [errorEvent('readChange')]: async () => {
            control.fail('readChange', new Error('IndexedDB unavailable'));
            await flush();
          },
        },
        states: {
          idle: () => expect(actor.getSnapshot().context.takingUp).toBeNull(),
          holding: () => expect(actor.getSnapshot().context.takingUp).toEqual(CHANGE),
          reading: () => expect(control.lastInput('readChange')).toEqual({ id: 'queued-1', picked }),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
