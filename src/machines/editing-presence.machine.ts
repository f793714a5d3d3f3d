import { assign, fromPromise, setup } from 'xstate';
import { PRESENCE_BEAT_MS, type OtherEditor } from '../../contract/presence';
import type { RevisionEntity } from '../../contract/revisions';

/**
 * Who else is editing the record an editor has open: while `present`, a heartbeat every
 * PRESENCE_BEAT_MS (`renew`) keeps this editor known and brings back the others, which the editor shows as
 * "<name> is editing this since 10:31". A failed heartbeat keeps what was known and tries again at
 * the next beat. `presence.stop` (the editor closed) says goodbye (`leave`). Nothing is locked.
 */

export interface PresenceRecord {
  entity: RevisionEntity;
  recordId: number;
  /** This editor's own id (one person may have the record open in two tabs). */
  editorId: string;
}

export interface EditingPresenceContext {
  record: PresenceRecord | null;
  others: OtherEditor[];
}

export type EditingPresenceEvent =
  { type: 'presence.start'; record: PresenceRecord } | { type: 'presence.stop' };

export const editingPresenceMachine = setup({
  types: {
    context: {} as EditingPresenceContext,
    events: {} as EditingPresenceEvent,
  },
  actors: {
    renew: fromPromise<OtherEditor[], PresenceRecord>(async () => []),
  },
  delays: { beat: PRESENCE_BEAT_MS },
  actions: {
    begin: assign((_, params: { record: PresenceRecord }) => ({ record: params.record, others: [] })),
    setOthers: assign({ others: (_, params: { others: OtherEditor[] }) => params.others }),
    /** Says goodbye (supplied by the screen). */
    leave: (_, _params: { record: PresenceRecord }) => {},
    clear: assign({ record: null, others: [] }),
  },
}).createMachine({
  id: 'editingPresence',
  context: { record: null, others: [] },
  initial: 'absent',
  states: {
    absent: {
      on: {
        'presence.start': {
          target: 'present',
          actions: { type: 'begin', params: ({ event }) => ({ record: event.record }) },
        },
      },
    },
    present: {
      initial: 'renewing',
      on: {
        'presence.stop': {
          target: 'absent',
          actions: [{ type: 'leave', params: ({ context }) => ({ record: context.record! }) }, 'clear'],
        },
      },
      states: {
        renewing: {
          invoke: {
            id: 'renew',
            src: 'renew',
            input: ({ context }) => context.record!,
            onDone: {
              target: 'waiting',
              actions: { type: 'setOthers', params: ({ event }) => ({ others: event.output }) },
            },
            onError: 'waiting',
          },
        },
        waiting: { after: { beat: 'renewing' } },
      },
    },
  },
});
