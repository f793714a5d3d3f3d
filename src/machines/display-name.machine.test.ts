import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { displayNameMachine, type DisplayNameEvent } from './display-name.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
} from './testing/test-model';

function start(name = '') {
  const ctl = controlledActors(['saveName']);
  const calls = { saved: [] as string[], failed: 0 };
  const actor = createActor(
    displayNameMachine.provide({
      actors: ctl.actors as never,
      actions: {
        notifySaved: (_, { name: n }) => void calls.saved.push(n),
        notifyFailed: () => void calls.failed++,
      },
    }),
    { input: { name } },
  ).start();
  return { actor, ctl, calls, ctx: () => actor.getSnapshot().context };
}

describe('your name on posts', () => {
  it('saves the name typed and shows it as the server stored it', async () => {
    const { actor, ctl, calls, ctx } = start('');
    actor.send({ type: 'name.change', name: '  Asha  Menon ' });
    actor.send({ type: 'name.save' });
    expect(actor.getSnapshot().value).toBe('saving');
    expect(ctl.lastInput('saveName')).toEqual({ name: '  Asha  Menon ' });
    ctl.settle('saveName', { display_name: 'Asha Menon' });
    await flush();
    expect(ctx()).toEqual({ name: 'Asha Menon', saved: 'Asha Menon', error: null });
    expect(calls.saved).toEqual(['Asha Menon']);
  });

  it('refuses a name over 80 characters without sending it, and keeps what was typed when saving fails', async () => {
    const { actor, ctl, calls, ctx } = start('Asha');
    actor.send({ type: 'name.change', name: 'x'.repeat(81) });
    actor.send({ type: 'name.save' });
    expect(ctx().error).toBe('tooLong');
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'name.change', name: 'Asha M.' });
    expect(ctx().error).toBeNull();
    actor.send({ type: 'name.save' });
    ctl.fail('saveName', new Error('offline'));
    await flush();
    expect(ctx()).toMatchObject({ name: 'Asha M.', saved: 'Asha' });
    expect(calls.failed).toBe(1);
  });
});

describe('display name paths', () => {
  const events = [
    { type: 'name.change', name: 'Asha' },
    { type: 'name.change', name: 'x'.repeat(81) },
    { type: 'name.save' },
    { type: doneEvent('saveName'), output: { display_name: 'Asha' } },
    { type: errorEvent('saveName'), error: new Error('down') },
  ];
  const model = createPathModel(displayNameMachine, {
    events: events as never,
    serializeState: (snapshot: { value: unknown; context: { name: string; error: string | null } }) =>
      JSON.stringify([snapshot.value, snapshot.context.name.length > 80, snapshot.context.error]),
  } as never);
  const walk = everyTransition(model, 'display-name.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThanOrEqual(5);
  });

  for (const path of walk.paths) {
    it(`a name too long is never sent: ${path.description}`, async () => {
      const { actor, ctl, ctx } = start('');
      const send = ({ event }: { event: unknown }) => actor.send(event as DisplayNameEvent);
      const settle =
        (ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) ctl.settle('saveName', e.output);
          else ctl.fail('saveName', e.error);
          await flush();
        };
      await path.test({
        events: {
          'name.change': send,
          'name.save': send,
          [doneEvent('saveName')]: settle(true),
          [errorEvent('saveName')]: settle(false),
        },
        states: {
          saving: () => expect(Array.from(ctx().name.trim()).length).toBeLessThanOrEqual(80),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
