import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { OtherEditor } from '../../contract/presence';
import { editingPresenceMachine } from './editing-presence.machine';
import { createPathModel, doneEvent, errorEvent, everyTransition, timerEvent } from './testing/test-model';

const RECORD = { entity: 'blog_post' as const, recordId: 7, editorId: 'editor-1234' };
const ASHA: OtherEditor = { email: 'asha@example.com', since: '2026-11-27T10:31:00.000Z' };

describe('who else is editing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('beats every 20 s while the editor is open, shows the others, keeps them through a failed beat, and says goodbye', async () => {
    const answers: (OtherEditor[] | Error)[] = [[ASHA], new Error('offline'), []];
    const inputs: unknown[] = [];
    const left: unknown[] = [];
    const actor = createActor(
      editingPresenceMachine.provide({
        actors: {
          renew: fromPromise(async ({ input }) => {
            inputs.push(input);
            const next = answers.shift()!;
            if (next instanceof Error) throw next;
            return next;
          }),
        },
        actions: { leave: (_, { record }) => void left.push(record) },
      }),
    ).start();
    actor.send({ type: 'presence.start', record: RECORD });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().context.others).toEqual([ASHA]);
    expect(inputs).toEqual([RECORD]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(inputs).toHaveLength(2);
    expect(actor.getSnapshot().context.others).toEqual([ASHA]); // a failed beat changes nothing
    await vi.advanceTimersByTimeAsync(20_000);
    expect(actor.getSnapshot().context.others).toEqual([]); // Asha closed her editor
    actor.send({ type: 'presence.stop' });
    expect(left).toEqual([RECORD]);
    expect(actor.getSnapshot().value).toBe('absent');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(inputs).toHaveLength(3);
  });
});

describe('presence paths', () => {
  const events = [
    { type: 'presence.start', record: RECORD },
    { type: 'presence.stop' },
    { type: doneEvent('renew'), output: [ASHA] },
    { type: errorEvent('renew'), error: new Error('offline') },
    { type: timerEvent('beat') },
  ];
  const model = createPathModel(editingPresenceMachine, { events: events as never });
  const walk = everyTransition(model, 'editing-presence.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(4);
  });
});
