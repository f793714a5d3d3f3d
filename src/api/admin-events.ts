import { STAFF_EVENT_TYPES, StaffEvent, type StaffEventType } from '../../contract/staff-events';

/**
 * The back office's one connection to the staff event stream (GET /api/admin/events,
 * docs/decisions/035-staff-stream.md), shared by every screen of the tab: opened when the first
 * screen listens, closed when the last stops. The browser's EventSource reconnects by itself; after
 * a reconnection the listeners are told `null` (events may have been missed: read again). A stream
 * the server refused (signed out) stays closed until a screen listens again.
 */

export type StaffEventListener = (event: StaffEvent | null) => void;

interface Subscriber {
  types: ReadonlySet<StaffEventType>;
  listener: StaffEventListener;
}

const subscribers = new Set<Subscriber>();
let source: EventSource | null = null;

function deliver(event: StaffEvent | null) {
  for (const s of [...subscribers]) if (event === null || s.types.has(event.type)) s.listener(event);
}

function connect() {
  const stream = new EventSource('/api/admin/events');
  let opened = false;
  const onMessage = (message: MessageEvent<string>) => {
    const parsed = StaffEvent.safeParse(JSON.parse(message.data));
    if (parsed.success) deliver(parsed.data);
  };
  for (const type of STAFF_EVENT_TYPES) stream.addEventListener(type, onMessage);
  stream.addEventListener('open', () => {
    if (opened) deliver(null); // back after a break: what happened meanwhile was not heard
    opened = true;
  });
  stream.addEventListener('error', () => {
    if (stream.readyState === EventSource.CLOSED && source === stream) source = null;
  });
  source = stream;
}

/** Listens to the staff events of `types`; answers how to stop. */
export function onStaffEvents(types: readonly StaffEventType[], listener: StaffEventListener): () => void {
  const subscriber: Subscriber = { types: new Set(types), listener };
  subscribers.add(subscriber);
  if (!source && typeof EventSource !== 'undefined') connect();
  return () => {
    subscribers.delete(subscriber);
    if (subscribers.size === 0 && source) {
      source.close();
      source = null;
    }
  };
}
