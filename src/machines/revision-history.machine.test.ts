import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { RevisionDetail, RevisionRow } from '../../contract/revisions';
import { VersionConflict } from '../../contract/versions';
import { revisionHistoryMachine, type RevisionHistoryEvent } from './revision-history.machine';
import {
  controlledActors,
  createPathModel,
  doneEvent,
  errorEvent,
  everyTransition,
  flush,
} from './testing/test-model';

const RECORD = { entity: 'blog_post' as const, recordId: 7, version: 3 };
const rev = (revision_id: number, version: number, changed: string[]): RevisionRow => ({
  revision_id,
  version,
  at: '2026-11-27T10:42:00.000Z',
  actor_email: 'asha@example.com',
  changed,
  restored_from: null,
});
const REVISIONS = [rev(3, 3, ['title']), rev(2, 2, ['content']), rev(1, 1, ['title', 'content'])];
const DETAIL: RevisionDetail = {
  revision: REVISIONS[1],
  fields: { title: 'A title', content: '<p>New words.</p>' },
  previous: { title: 'A title', content: '<p>Old words.</p>' },
};

function start() {
  const ctl = controlledActors(['loadRevisions', 'loadRevision', 'restoreRevision']);
  const calls = { restored: [] as unknown[], failed: 0, overtaken: [] as (string | null)[] };
  const actor = createActor(
    revisionHistoryMachine.provide({
      actors: ctl.actors as never,
      actions: {
        notifyRestored: (_, { row }) => void calls.restored.push(row),
        notifyFailed: () => void calls.failed++,
        notifyOvertaken: (_, { changedBy }) => void calls.overtaken.push(changedBy),
      },
    }),
  ).start();
  return { actor, ctl, calls, ctx: () => actor.getSnapshot().context };
}

describe('the History view', () => {
  it('lists the versions, shows one beside the one before, and restores it on the version the editor shows', async () => {
    const { actor, ctl, calls, ctx } = start();
    actor.send({ type: 'history.open', record: RECORD });
    expect(actor.getSnapshot().value).toBe('loading');
    expect(ctl.lastInput('loadRevisions')).toEqual(RECORD);
    ctl.settle('loadRevisions', REVISIONS);
    await flush();
    expect(actor.getSnapshot().value).toBe('listing');
    actor.send({ type: 'revision.select', revisionId: 2 });
    expect(ctl.lastInput('loadRevision')).toEqual({ ...RECORD, revisionId: 2 });
    ctl.settle('loadRevision', DETAIL);
    await flush();
    expect(actor.getSnapshot().value).toBe('showing');
    expect(ctx().selected).toEqual(DETAIL);
    actor.send({ type: 'revision.restore' });
    expect(ctl.lastInput('restoreRevision')).toEqual({ ...RECORD, revisionId: 2 });
    ctl.settle('restoreRevision', { blog_id: 7, version: 4 });
    await flush();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(calls.restored).toEqual([{ blog_id: 7, version: 4 }]);
    expect(ctx().record).toBeNull();
  });

  it('a record saved meanwhile: the list again on their version, and who saved it', async () => {
    const { actor, ctl, calls, ctx } = start();
    actor.send({ type: 'history.open', record: RECORD });
    ctl.settle('loadRevisions', REVISIONS);
    await flush();
    actor.send({ type: 'revision.select', revisionId: 2 });
    ctl.settle('loadRevision', DETAIL);
    await flush();
    actor.send({ type: 'revision.restore' });
    ctl.fail(
      'restoreRevision',
      new VersionConflict({ current: { version: 5 }, changedBy: 'ravi@example.com', changedAt: null }),
    );
    await flush();
    expect(actor.getSnapshot().value).toBe('loading');
    expect(ctx().record?.version).toBe(5);
    expect(calls.overtaken).toEqual(['ravi@example.com']);
  });

  it('a failed load offers Retry; a failed restore keeps the version shown', async () => {
    const { actor, ctl, calls } = start();
    actor.send({ type: 'history.open', record: RECORD });
    ctl.fail('loadRevisions', new Error('down'));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'history.retry' });
    ctl.settle('loadRevisions', REVISIONS);
    await flush();
    actor.send({ type: 'revision.select', revisionId: 2 });
    ctl.settle('loadRevision', DETAIL);
    await flush();
    actor.send({ type: 'revision.restore' });
    ctl.fail('restoreRevision', new Error('down'));
    await flush();
    expect(actor.getSnapshot().value).toBe('showing');
    expect(calls.failed).toBe(1);
  });
});

describe('History paths', () => {
  const events = [
    { type: 'history.open', record: RECORD },
    { type: 'history.close' },
    { type: 'history.retry' },
    { type: 'revision.select', revisionId: 2 },
    { type: 'revision.back' },
    { type: 'revision.restore' },
    { type: doneEvent('loadRevisions'), output: REVISIONS },
    { type: errorEvent('loadRevisions'), error: new Error('down') },
    { type: doneEvent('loadRevision'), output: DETAIL },
    { type: errorEvent('loadRevision'), error: new Error('down') },
    { type: doneEvent('restoreRevision'), output: { blog_id: 7 } },
    { type: errorEvent('restoreRevision'), error: new Error('down') },
  ];
  const model = createPathModel(revisionHistoryMachine, { events: events as never });
  const walk = everyTransition(model, 'revision-history.machine', events);

  it('walks every transition its events can take', () => {
    console.log(walk.summary);
    expect(walk.coverage.walked).toBe(walk.coverage.total);
    expect(walk.coverage.total).toBeGreaterThan(15);
  });

  for (const path of walk.paths) {
    it(`a record is open exactly while the view is: ${path.description}`, async () => {
      const { actor, ctl, ctx } = start();
      const send = ({ event }: { event: unknown }) => actor.send(event as RevisionHistoryEvent);
      const settle =
        (id: 'loadRevisions' | 'loadRevision' | 'restoreRevision', ok: boolean) =>
        async ({ event }: { event: unknown }) => {
          const e = event as { output?: unknown; error?: unknown };
          if (ok) ctl.settle(id, e.output);
          else ctl.fail(id, e.error);
          await flush();
        };
      await path.test({
        events: {
          'history.open': send,
          'history.close': send,
          'history.retry': send,
          'revision.select': send,
          'revision.back': send,
          'revision.restore': send,
          [doneEvent('loadRevisions')]: settle('loadRevisions', true),
          [errorEvent('loadRevisions')]: settle('loadRevisions', false),
          [doneEvent('loadRevision')]: settle('loadRevision', true),
          [errorEvent('loadRevision')]: settle('loadRevision', false),
          [doneEvent('restoreRevision')]: settle('restoreRevision', true),
          [errorEvent('restoreRevision')]: settle('restoreRevision', false),
        },
        states: {
          closed: () => expect(ctx().record).toBeNull(),
          loading: () => expect(ctx().record).toEqual(RECORD),
          showing: () => expect(ctx().selected).toEqual(DETAIL),
          restoring: () => expect(ctx().selected?.revision.revision_id).toBe(2),
        },
      });
      expect(actor.getSnapshot().value).toEqual(path.state.value);
    });
  }
});
