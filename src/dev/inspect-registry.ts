import type { InspectionEvent, Observer } from 'xstate';

/** The inspector's observer once src/dev/inspector.ts started it (development builds, ?inspect). */
let observer: Observer<InspectionEvent> | ((event: InspectionEvent) => void) | undefined;

export function setInspect(next: typeof observer): void {
  observer = next;
}

export function getInspect(): typeof observer {
  return observer;
}
