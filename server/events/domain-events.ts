/**
 * What happened, in the words of the site's records, announced once the change that made it
 * happen has committed (docs/decisions/034-domain-events.md). A service names what happened
 * (`change.announce` in services/context.ts); what follows from it (the public read cache, the
 * mail sender, the blog schedule, the staff's screens, webhooks) listens in one file,
 * events/listeners.ts. Ghost's DomainEvents is the model; events here are plain typed objects.
 *
 * Events carry ids and small facts, never a person's words or files: a listener that needs more
 * reads the record (a webhook's body is built from what a public page or the event itself shows).
 */
export interface DomainEventMap {
  /** A blog post was created (any status). */
  'post.added': { blog_id: number; status: string };
  /** A post's fields changed (`changed` names them); its status may be among them. */
  'post.edited': { blog_id: number; status: string; changed: string[] };
  /** A post went public: a person published it, or its scheduled time came. */
  'post.published': { blog_id: number; slug: string };
  /** A public post was taken off the site (to Draft or Scheduled). */
  'post.unpublished': { blog_id: number };
  'post.deleted': { blog_id: number };
  'opening.added': { job_id: number; status: string };
  'opening.edited': { job_id: number; status: string; changed: string[] };
  /** An opening's status changed (Open, Closed, Draft); `rejected` applications went with a closing. */
  'opening.status_changed': { job_id: number; from: string; status: string; rejected: number };
  'opening.deleted': { job_id: number };
  /** A candidate applied (through the careers page). */
  'application.received': { application_id: number; job_id: number };
  /** An application moved to another stage (by staff, or by the closing of its opening). */
  'application.status_changed': { application_id: number; from: string; status: string };
  /** A note was added or a mail queued to the candidate: the application's timeline grew. */
  'application.timeline_changed': { application_id: number };
  /** Applications were deleted (by staff, or by the retention purge). */
  'application.deleted': { application_ids: number[] };
  /** Someone wrote through the contact form. */
  'message.received': { message_id: number };
  /** A message's handled flag or assignee changed, or a reply was queued to its writer. */
  'message.changed': { message_id: number };
  'message.deleted': { message_id: number };
  /** A change queued mail in the outbox: the sender may look now. */
  'mail.queued': object;
  /** The sender delivered a mail, or gave up on it (`failed`), or will try again (`retrying`). */
  'mail.delivery': { mail_id: number; status: 'sent' | 'failed' | 'retrying' };
}

export type DomainEventType = keyof DomainEventMap;

/** One event: its type and its facts. */
export type DomainEvent = { [K in DomainEventType]: { type: K } & DomainEventMap[K] }[DomainEventType];

/** The event of type K. */
export type EventOf<K extends DomainEventType> = Extract<DomainEvent, { type: K }>;

/** Who made it happen: a signed-in user's id, or null for the system and for visitors. */
export interface EventOrigin {
  by: number | null;
}

/** A listener: what it returns (a promise) is followed, and its failure logged, never thrown. */
export type Listener<E extends DomainEvent = DomainEvent> = (
  event: E,
  origin: EventOrigin,
) => void | Promise<unknown>;

/** Where events are announced: the one thing a service knows of the stream. */
export interface EventPublisher {
  publish(event: DomainEvent, origin?: EventOrigin): void;
}

export interface EventLog {
  error(obj: object, msg: string): void;
}

/**
 * The stream of one process. Listeners run in the order they were added, synchronously when the
 * event is published (so a cache is stale before the change's answer leaves); a listener's
 * promise is followed, and `settled()` waits for those still running (the app's close, tests).
 * A listener that throws or rejects is logged; the others still run and the change stands.
 */
export class DomainEvents implements EventPublisher {
  readonly #listeners = new Map<DomainEventType | '*', Listener[]>();
  readonly #running = new Set<Promise<unknown>>();
  readonly #log: EventLog;

  constructor(log: EventLog) {
    this.#log = log;
  }

  /** Listens to events of `type` ('*': every event); answers how to stop listening. */
  on<K extends DomainEventType>(type: K, listener: Listener<EventOf<K>>): () => void;
  on(type: '*', listener: Listener): () => void;
  on(type: DomainEventType | '*', listener: Listener<never>): () => void {
    const list = this.#listeners.get(type) ?? [];
    list.push(listener as Listener);
    this.#listeners.set(type, list);
    return () => {
      const at = list.indexOf(listener as Listener);
      if (at >= 0) list.splice(at, 1);
    };
  }

  publish(event: DomainEvent, origin: EventOrigin = { by: null }): void {
    const listeners = [...(this.#listeners.get(event.type) ?? []), ...(this.#listeners.get('*') ?? [])];
    for (const listener of listeners) {
      try {
        const result = listener(event, origin);
        if (result instanceof Promise) this.#follow(event, result);
      } catch (err) {
        this.#failed(event, err);
      }
    }
  }

  /** Waits for the listeners' work still running (and what it started meanwhile). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  #follow(event: DomainEvent, work: Promise<unknown>) {
    const followed = work.catch((err: unknown) => this.#failed(event, err));
    this.#running.add(followed);
    void followed.finally(() => this.#running.delete(followed));
  }

  #failed(event: DomainEvent, err: unknown) {
    this.#log.error({ err, event: event.type }, 'A listener of a domain event failed; the change stands');
  }
}
