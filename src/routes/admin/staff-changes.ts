import { fromCallback } from 'xstate';
import { onStaffEvents } from '../../api/admin-events';
import type { StaffEventType } from '../../../contract/staff-events';

/** Changes that come together (a closing that rejects twenty applications) make one read. */
export const CHANGES_SETTLE_MS = 300;

/**
 * A paged list's `changeEvents` (machines/paged-list.machine.ts): `list.changed` once the records
 * of `types` changed elsewhere (a colleague, the server) and CHANGES_SETTLE_MS passed without
 * another, or when the stream came back after a break (what happened meanwhile was not heard).
 * docs/decisions/035-staff-stream.md.
 */
export const listChanges = (types: readonly StaffEventType[]) =>
  fromCallback(({ sendBack }) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onStaffEvents(types, () => {
      clearTimeout(timer);
      timer = setTimeout(() => sendBack({ type: 'list.changed' } as const), CHANGES_SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  });

/**
 * A record timeline's `changeEvents` (machines/record-timeline.machine.ts): `timeline.refresh` once
 * an event of `types` names this record (a colleague's note, its mail delivered), or the stream came
 * back after a break.
 */
export const recordChanges = (types: readonly StaffEventType[]) =>
  fromCallback<{ type: string }, { recordId: number }>(({ sendBack, input }) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onStaffEvents(types, (event) => {
      if (event && !event.ids.includes(input.recordId)) return;
      clearTimeout(timer);
      timer = setTimeout(() => sendBack({ type: 'timeline.refresh' }), CHANGES_SETTLE_MS);
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  });
