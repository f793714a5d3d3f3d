import { fromPromise } from 'xstate';
import { leavePresence, renewPresence } from '../../../api/presence';
import { editingPresenceMachine } from '../../../machines/editing-presence.machine';

/** Who else is editing, with its live effects: the heartbeat and the goodbye. */
export const presenceLive = () =>
  editingPresenceMachine.provide({
    actors: {
      renew: fromPromise(({ input }) => renewPresence(input.entity, input.recordId, input.editorId)),
    },
    actions: {
      leave: (_, { record }) => void leavePresence(record.entity, record.recordId, record.editorId),
    },
  });
