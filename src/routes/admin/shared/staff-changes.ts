import { fromCallback } from 'xstate';
import { onStaffEvents, type StaffEventListener } from '../../../api/admin-events';
import type { StaffEvent, StaffEventType } from '../../../../contract/staff-events';

/** Changes that come together (a closing that rejects twenty applications) make one read. */
export const CHANGES_SETTLE_MS = 300;

/**
 * Calls `settled` once events of `types` that `concerns` (every one by default) stopped coming for
 * CHANGES_SETTLE_MS, or once the stream came back after a break (what happened meanwhile was not
 * heard); answers how to stop listening. docs/decisions/035-staff-stream.md.
 */
function onSettledChanges(
  types: readonly StaffEventType[],
  settled: () => void,
  concerns: (event: StaffEvent) => boolean = () => true,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listener: StaffEventListener = (event) => {
    if (event && !concerns(event)) return;
    clearTimeout(timer);
    timer = setTimeout(settled, CHANGES_SETTLE_MS);
  };
  const stop = onStaffEvents(types, listener);
  return () => {
    clearTimeout(timer);
    stop();
  };
}

/**
 * A paged list's `changeEvents` (machines/paged-list.machine.ts): `list.changed` once the records
 * of `types` changed elsewhere (a colleague, the server).
 */
export const listChanges = (types: readonly StaffEventType[]) =>
  fromCallback(({ sendBack }) => onSettledChanges(types, () => sendBack({ type: 'list.changed' } as const)));

/**
 * A record timeline's `changeEvents` (machines/record-timeline.machine.ts): `timeline.refresh` once
 * an event of `types` names this record (a colleague's note, its mail delivered).
 */
export const recordChanges = (types: readonly StaffEventType[]) =>
  fromCallback<{ type: string }, { recordId: number }>(({ sendBack, input }) =>
    onSettledChanges(
      types,
      () => sendBack({ type: 'timeline.refresh' }),
      (event) => event.ids.includes(input.recordId),
    ),
  );
