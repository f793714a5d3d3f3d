import { assign, fromCallback, fromPromise, raise, setup, type EventObject } from 'xstate';
import { VersionConflict, type Conflict } from '../../contract/versions';
import { isQueued, type QueuedSubmission } from '../offline/queued';

/**
 * One editor for every record staff edit in a dialog (a blog post, a job opening; the next one is a
 * configuration of it, not a copy): docs/decisions/036-record-editor.md. `recordEditor(options)`
 * makes the machine; the options say what is the record's own (its fields, how a person reads
 * them, its rules, what its save sends), the machine owns the rest:
 *
 * - `closed` -> `editing` on `editor.open` (with a `row`: edit, the fields read from it; without:
 *   a new record, the empty fields with the event's `defaults`).
 * - `editing` is parallel: `display` (a refused submit's errors: all of them for `errorDisplayMs`,
 *   or, with `firstErrorOnly`, the first until its field changes; the first failing field gets the
 *   focus), `restore` (a draft of this record found on the device that differs from the form,
 *   offered once per opening: 'Restore unsaved changes from {time}?'), `autosave` (what is typed,
 *   kept on the device `draftDelay` after the first unsaved change, and on coming back to a changed
 *   form), and where the options ask for them `choices` (what the fields offer, loaded while
 *   editing) and `unlock` (fields that open in order: one state per field, so the diagram shows
 *   the order).
 * - A backdrop click or Escape (`editor.dismiss`) closes an unchanged form at once and asks
 *   'Discard what you typed?' (`confirmingDiscard`) when something changed; Cancel closes at once.
 *   Saving, Cancel and Discard remove the device's draft (`forgetDraft`).
 * - `submitting` sends the form (`save`, see `savingActor`: `upload.progress`, then `save.succeeded`,
 *   `save.queued` without a connection, or `save.failed`). An edit is based on the record's version
 *   (docs/decisions/022-versions-and-conflicts.md) and sends only the fields the person changed.
 *   When someone else saved meanwhile, the fields only they changed take their values and the save
 *   goes again at once (`notifyMerged`); when both changed a field, `conflict` shows theirs beside
 *   mine: keep mine, take theirs, or (for a field the options call `joinable`) keep both texts to
 *   merge by hand. Field errors the server names show like the form's own; any other failure keeps
 *   everything typed (`notifyFailed`).
 * - A save kept offline that met someone else's change is taken up again (`editor.resume`): the
 *   form opens on the record as it was read, the fields as opened and as saved, and sends again.
 *   Once saved, the send queue's entry is removed (`forgetQueued`).
 */

// ---------------------------------------------------------------------------------------------
// The rules of a save that meets someone else's (docs/decisions/022-versions-and-conflicts.md),
// also used by the other screens that change a versioned record.

/** How a person reads a field's value: what "the same" means for it. */
export type ReadField<V> = (field: keyof V & string, value: V[keyof V & string]) => string;

/** Someone else's save beside what the form holds, while the editor is in `conflict`. */
export interface EditConflict<V> {
  theirs: V;
  version: number;
  changedBy: string | null;
  changedAt: string | null;
  /** The fields both changed: the ones to choose for. */
  fields: (keyof V & string)[];
}

/** The fields whose values differ as a person reads them. */
export const changedOf = <V>(
  fields: readonly (keyof V & string)[],
  read: ReadField<V>,
  values: V,
  opened: V,
): (keyof V & string)[] => fields.filter((f) => read(f, values[f]) !== read(f, opened[f]));

/**
 * Someone else's save met: the fields only they changed take their values, the fields only this
 * form changed keep mine, and `both` lists the fields both changed to different values.
 */
export function meetTheirs<V>(
  fields: readonly (keyof V & string)[],
  read: ReadField<V>,
  values: V,
  opened: V,
  theirs: V,
): { merged: V; both: (keyof V & string)[] } {
  const mine = new Set(changedOf(fields, read, values, opened));
  const both = changedOf(fields, read, theirs, opened).filter(
    (f) => mine.has(f) && read(f, theirs[f]) !== read(f, values[f]),
  );
  const merged = { ...values };
  for (const f of fields) if (!mine.has(f)) merged[f] = theirs[f];
  return { merged, both };
}

/** The conflict a failed save carries (the transport's `VersionConflict`), or null. */
export const conflictIn = <T>(error: unknown): Conflict<T> | null =>
  error instanceof VersionConflict ? (error as VersionConflict<T>).conflict : null;

/** True when a failed change says its record is already gone (404): deleted elsewhere meanwhile. */
export const isGoneError = (error: unknown): boolean =>
  (error as { status?: unknown } | null)?.status === 404;

// ---------------------------------------------------------------------------------------------
// The editor.

/** A record the editor edits: its version is what an edit is based on. */
export interface EditedRow {
  version?: number | null;
}

/** A form kept on the device as it was typed (src/offline/drafts.ts); a chosen file is not kept. */
export interface RecordDraft<F> {
  values: F;
  savedAt: string;
}
/** Which draft: the record's (its id), or the one new record being written (0). */
export interface DraftRef {
  id: number;
}

/** A change kept in the send queue that met someone else's, taken up again by its author. */
export interface QueuedChange<R, F> {
  /** The entry's id in the send queue. */
  id: string;
  recordId: number;
  /** The version the change was based on. */
  version: number | null;
  /** The record as it was read when the change was made, where the queue kept it. */
  original: R | null;
  /** The form as it was opened, and as it was saved (with the file chosen, if any). */
  base: F;
  values: F;
  file: File | null;
}

export interface RecordEditorContext<R, F, E extends string, C, Ch> {
  mode: 'create' | 'edit';
  /** The record's id, 0 for a new one. */
  recordId: number;
  /** The record the form opened on (edit), null for a new one. */
  original: R | null;
  /** The version of the record the form is based on (edit), null for a new one. */
  version: number | null;
  fields: F;
  /** What the form opened with (empty with its defaults, or the record): what "unchanged" means. */
  opened: F;
  /** A chosen file (an image that replaces an address), where the record has one. */
  file: File | null;
  /** The errors shown (their codes; the screen has the texts), by the form's error fields. */
  errors: Partial<Record<E, C>>;
  /** Upload progress 0..1 while submitting, else null. */
  progress: number | null;
  /** A draft of this record found on the device that differs from the form, offered to restore. */
  draft: RecordDraft<F> | null;
  /** The device's draft was looked for (and any offer answered) since the form opened. */
  draftChecked: boolean;
  /** Someone else's save that crossed this one on the same fields, while `conflict`. */
  conflict: EditConflict<F> | null;
  /** The send-queue entry this form took up (`editor.resume`), removed once the change is saved. */
  queued: string | null;
  /** What the fields offer (loaded while editing, with the `choices` option). */
  choices: Ch;
}

/** What a save answers: the server's message and the record as saved. */
export interface SavedAnswer<R> {
  message: string;
  row?: R;
}

/** The save actor's input: what the options' `saveInput` made, and the form it came from. */
export interface SaveRequest<R, F, I> {
  input: I;
  context: { opened: F; fields: F; original: R | null; recordId: number; version: number | null };
}

export type RecordEditorEvent<R, F> =
  /** `row`: the record to edit; without it a new one, with `defaults` (today's date, the writer). */
  | { type: 'editor.open'; row?: R; defaults?: Partial<F> }
  /** Takes up a change made offline that met someone else's (see QueuedChange). */
  | { type: 'editor.resume'; change: QueuedChange<R, F> }
  | { type: 'field.change'; field: keyof F & string; value: F[keyof F & string] }
  /**
   * Raised by the machine itself once a change is in the form (a field, a cleared file): the
   * regions follow it (a parallel state's own transitions give way to its regions' in XState 5).
   */
  | { type: 'form.changed'; field: keyof F & string }
  | { type: 'file.choose'; file: File | null }
  | { type: 'file.clear' }
  | { type: 'editor.submit' }
  | { type: 'editor.cancel' }
  /** A click on the backdrop or Escape: closes an unchanged form, asks first when something changed. */
  | { type: 'editor.dismiss' }
  | { type: 'discard.confirm' }
  | { type: 'discard.cancel' }
  /** 'Restore unsaved changes from {time}?': yes, or no (the draft is dropped). */
  | { type: 'draft.restore' }
  | { type: 'draft.ignore' }
  | { type: 'upload.progress'; loaded: number; total: number }
  | { type: 'save.succeeded'; answer: SavedAnswer<R> }
  | { type: 'save.failed'; error: unknown }
  /** No connection: the save was kept in the send queue under this id. */
  | { type: 'save.queued'; id: string }
  /** After a conflict: save mine over theirs, take theirs, or keep both texts to merge by hand. */
  | { type: 'conflict.keepMine' }
  | { type: 'conflict.takeTheirs' }
  | { type: 'conflict.keepBoth' };

/** What is the record's own; everything else is the editor's. */
export interface RecordEditorOptions<R, F, E extends string, C, Ch, I> {
  /** The machine's id (its diagram's name). */
  id: string;
  /** The form's fields, in the order it shows them (and unlocks them, with `unlock`). */
  fields: readonly (keyof F & string)[];
  /** The fields of a new record. */
  empty: F;
  /** A record's fields as the form holds them. */
  fieldsOf(row: R): F;
  idOf(row: R): number;
  /** How a person reads a field: what "the same" means (a line trimmed, rich text as text). */
  read: ReadField<F>;
  /** A field changed: the fields that follow from it (a read time from the text); as typed by default. */
  change?(fields: F, field: keyof F & string, value: F[keyof F & string]): F;
  /** Every rule of the form for what it holds. */
  errorsOf(context: RecordEditorContext<R, F, E, C, Ch>): Partial<Record<E, C>>;
  /** The error fields in the form's order: the first failing one is focused. */
  errorFields: readonly E[];
  /** The errors a refusal names for the form's fields ({} when it names none). */
  serverErrors?(error: unknown): Partial<Record<E, C>>;
  /** Errors show this long; without it they stay until their field changes. */
  errorDisplayMs?: number;
  /** Only the first failing field's error is shown (the job form: decision 030). */
  firstErrorOnly?: boolean;
  /** A field whose text and theirs may both be kept, to merge by hand ('Keep both'). */
  joinable(field: keyof F & string): boolean;
  /** What the save sends. */
  saveInput(context: RecordEditorContext<R, F, E, C, Ch>): I;
  /** The record has a file: which files it takes, the error a refused one shows, the address it replaces. */
  file?: { accepts(file: File): boolean; error: E; code: C; replaces: keyof F & string };
  /** What the fields offer before they are loaded (`choices` region, `loadChoices` actor). */
  choices?: Ch;
  /** Fields open in order, each once it has a value (`unlock` region). */
  unlock?: (field: keyof F & string, fields: F) => boolean;
}

/**
 * The save actor from a function that sends the form and reports progress:
 * `actors: { save: savingActor((input, onProgress, signal, context) => ...) }`.
 */
export function savingActor<R, F, I>(
  save: (
    input: I,
    onProgress: (loaded: number, total: number) => void,
    signal: AbortSignal,
    /** The form as it was opened and as saved, and the record it is based on (kept with a queued save). */
    context: SaveRequest<R, F, I>['context'],
  ) => Promise<SavedAnswer<R> | QueuedSubmission>,
) {
  return fromCallback<EventObject, SaveRequest<R, F, I>>(({ input, sendBack }) => {
    const controller = new AbortController();
    let active = true;
    save(
      input.input,
      (loaded, total) => active && sendBack({ type: 'upload.progress', loaded, total }),
      controller.signal,
      input.context,
    ).then(
      (answer) =>
        active &&
        sendBack(
          isQueued(answer) ? { type: 'save.queued', id: answer.id } : { type: 'save.succeeded', answer },
        ),
      (error: unknown) => active && sendBack({ type: 'save.failed', error }),
    );
    return () => {
      active = false;
      controller.abort();
    };
  });
}

/** Whether the form holds a change a person would lose (as read, or a chosen file). */
export const isChangedIn = <F>(
  fields: readonly (keyof F & string)[],
  read: ReadField<F>,
  context: { fields: F; opened: F; file: File | null },
): boolean => context.file !== null || changedOf(fields, read, context.fields, context.opened).length > 0;

/** The unlock region's states: one per field, then `complete`. */
export const unlockStatesOf = <F>(fields: readonly (keyof F & string)[]) => [...fields, 'complete'] as const;

/** Which fields are open while the unlock region rests on `at` (every field up to it). */
export function unlockedAt<K extends string>(fields: readonly K[], at: K | 'complete'): Record<K, boolean> {
  const reached = at === 'complete' ? fields.length : fields.indexOf(at);
  return Object.fromEntries(fields.map((field, i) => [field, i <= reached])) as Record<K, boolean>;
}

/** Where the unlock region of a snapshot rests (`complete` outside editing, or without the region). */
export function unlockStateOf<K extends string>(snapshot: { value: unknown }): K | 'complete' {
  const value = snapshot.value as { editing?: { unlock?: K } };
  return value.editing?.unlock ?? 'complete';
}

/** The regions of `editing` (`choices` and `unlock` only where the options ask for them). */
export type EditingRegion = 'display' | 'restore' | 'autosave' | 'choices' | 'unlock';

export function recordEditor<
  R extends EditedRow,
  F extends object,
  E extends string,
  C,
  Ch = null,
  I = unknown,
>(options: RecordEditorOptions<R, F, E, C, Ch, I>) {
  type K = keyof F & string;
  type Context = RecordEditorContext<R, F, E, C, Ch>;
  const { fields: FIELDS, read } = options;
  const conflictOf = (error: unknown) => conflictIn<R>(error);
  const changed = (context: Pick<Context, 'fields' | 'opened' | 'file'>) =>
    isChangedIn(FIELDS, read, context);
  const firstOf = (errors: Partial<Record<E, C>>): E | undefined =>
    options.errorFields.find((f) => errors[f] !== undefined);
  /** The errors the form shows: all, or the first only. */
  const shown = (errors: Partial<Record<E, C>>): Partial<Record<E, C>> => {
    if (!options.firstErrorOnly) return errors;
    const first = firstOf(errors);
    return first === undefined ? {} : ({ [first]: errors[first] } as Partial<Record<E, C>>);
  };
  const serverErrors = (error: unknown) => options.serverErrors?.(error) ?? {};
  const draftRef = ({ context }: { context: Context }): DraftRef => ({ id: context.recordId });
  const closedContext = (): Context => ({
    mode: 'create',
    recordId: 0,
    original: null,
    version: null,
    fields: options.empty,
    opened: options.empty,
    file: null,
    errors: {},
    progress: null,
    draft: null,
    draftChecked: false,
    conflict: null,
    queued: null,
    choices: options.choices as Ch,
  });
  const forget = { type: 'forgetDraft', params: draftRef } as const;
  const close = { target: 'closed', actions: [forget, 'reset'] } as const;

  const regions: Record<string, object> = {
    display: {
      initial: 'clean',
      states: {
        clean: {},
        invalid:
          options.errorDisplayMs !== undefined
            ? { after: { errorDisplay: { target: 'clean', actions: 'clearErrors' } } }
            : {
                on: {
                  'form.changed': {
                    guard: { type: 'isErrorField', params: ({ event }: { event: { field: K } }) => event },
                    target: 'clean',
                    actions: 'clearErrors',
                  },
                },
              },
      },
    },
    restore: {
      initial: 'deciding',
      states: {
        // looked for once per opening: coming back to the form (Keep editing, a failed save, a
        // conflict) is not opening it, and the draft autosave keeps is this very form
        deciding: { always: [{ guard: 'draftWasChecked', target: 'none' }, { target: 'checking' }] },
        checking: {
          invoke: {
            id: 'readDraft',
            src: 'readDraft',
            input: draftRef,
            onDone: [
              {
                guard: {
                  type: 'isDifferentDraft',
                  params: ({ event }: { event: { output: RecordDraft<F> | null } }) => ({
                    draft: event.output,
                  }),
                },
                target: 'offering',
                actions: {
                  type: 'offerDraft',
                  params: ({ event }: { event: { output: RecordDraft<F> } }) => ({ draft: event.output }),
                },
              },
              { target: 'none', actions: 'draftChecked' },
            ],
            onError: { target: 'none', actions: 'draftChecked' },
          },
        },
        offering: {
          on: {
            'draft.restore': { target: 'none', actions: 'restoreDraft' },
            'draft.ignore': { target: 'none', actions: ['dropOffer', forget] },
          },
        },
        none: {},
      },
    },
    autosave: {
      initial: 'deciding',
      states: {
        // back to a changed form (Keep editing, a failed save, a conflict answered): what was
        // typed just before is kept on the device as well
        deciding: { always: [{ guard: 'isChanged', target: 'changed' }, { target: 'kept' }] },
        kept: { on: { 'form.changed': 'changed', 'draft.restore': 'changed' } },
        changed: { after: { draftDelay: 'keeping' } },
        keeping: {
          invoke: {
            id: 'writeDraft',
            src: 'writeDraft',
            input: ({ context }: { context: Context }) => ({ id: context.recordId, values: context.fields }),
            onDone: 'kept',
            onError: 'kept',
          },
          on: { 'form.changed': 'changed' },
        },
      },
    },
  };
  if (options.choices !== undefined)
    regions.choices = {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadChoices',
            src: 'loadChoices',
            onDone: {
              target: 'loaded',
              actions: {
                type: 'keepChoices',
                params: ({ event }: { event: { output: Ch } }) => ({ choices: event.output }),
              },
            },
            onError: 'unavailable',
          },
        },
        loaded: {},
        unavailable: {},
      },
    };
  if (options.unlock) {
    // one state per field: it passes on to the next once its field has a value (eventless), so
    // after any change the region, entered again at the first field, rests on the first empty one
    const order = unlockStatesOf(FIELDS);
    regions.unlock = {
      initial: FIELDS[0],
      on: { 'form.changed': `.${FIELDS[0]}`, 'draft.restore': `.${FIELDS[0]}` },
      states: {
        ...Object.fromEntries(
          FIELDS.map((field, i) => [
            field,
            { always: { guard: { type: 'hasValue', params: { field } }, target: order[i + 1] } },
          ]),
        ),
        complete: {},
      },
    };
  }

  return setup({
    types: {
      context: {} as Context,
      events: {} as RecordEditorEvent<R, F>,
    },
    actors: {
      save: savingActor<R, F, I>(async () => {
        throw new Error('save is provided by the app');
      }),
      /** This record's draft on the device, or null. */
      readDraft: fromPromise<RecordDraft<F> | null, DraftRef>(async () => null),
      /** Keeps what the form holds on the device. */
      writeDraft: fromPromise<void, DraftRef & { values: F }>(async () => {}),
      /** What the fields offer (the `choices` option). */
      loadChoices: fromPromise<Ch>(async () => options.choices as Ch),
    },
    delays: {
      errorDisplay: options.errorDisplayMs ?? 0,
      /** What is typed is kept on the device at most this long after the first unsaved change. */
      draftDelay: 2000,
    },
    actions: {
      open: assign(({ context }, params: { row?: R; defaults?: Partial<F> }): Partial<Context> => {
        const row = params.row;
        const fields = row ? options.fieldsOf(row) : { ...options.empty, ...params.defaults };
        return {
          ...closedContext(),
          choices: context.choices,
          mode: row ? 'edit' : 'create',
          recordId: row ? options.idOf(row) : 0,
          original: row ?? null,
          version: row?.version ?? null,
          fields,
          opened: fields,
        };
      }),
      resume: assign(({ context }, params: { change: QueuedChange<R, F> }): Partial<Context> => ({
        ...closedContext(),
        choices: context.choices,
        mode: 'edit',
        recordId: params.change.recordId,
        original: params.change.original,
        version: params.change.version,
        fields: params.change.values,
        opened: params.change.base,
        file: params.change.file,
        queued: params.change.id,
        draftChecked: true,
      })),
      reset: assign(({ context }) => ({ ...closedContext(), choices: context.choices })),
      setField: assign({
        fields: ({ context }, params: { field: K; value: F[K] }) =>
          options.change
            ? options.change(context.fields, params.field, params.value)
            : { ...context.fields, [params.field]: params.value },
      }),
      setFile: assign({ file: (_, params: { file: File | null }) => params.file }),
      clearFile: assign(({ context }) => ({
        file: null,
        fields: options.file ? { ...context.fields, [options.file.replaces]: '' } : context.fields,
      })),
      showErrors: assign({ errors: (_, params: { errors: Partial<Record<E, C>> }) => shown(params.errors) }),
      clearErrors: assign({ errors: {} }),
      setProgress: assign({
        progress: (_, params: { loaded: number; total: number }) =>
          params.total > 0 ? Math.min(1, Math.max(0, params.loaded / params.total)) : null,
      }),
      startProgress: assign({ progress: 0 }),
      stopProgress: assign({ progress: null }),
      offerDraft: assign({ draft: (_, params: { draft: RecordDraft<F> }) => params.draft }),
      restoreDraft: assign(({ context }) => ({
        fields: context.draft?.values ?? context.fields,
        draft: null,
        draftChecked: true,
      })),
      dropOffer: assign({ draft: null, draftChecked: true }),
      draftChecked: assign({ draftChecked: true }),
      /** Their save is the new base: fields only they changed take their values (see meetTheirs). */
      meetTheirs: assign(({ context }, params: { error: unknown }) => {
        const met = conflictOf(params.error)!;
        const theirs = options.fieldsOf(met.current);
        const { merged, both } = meetTheirs(FIELDS, read, context.fields, context.opened, theirs);
        return {
          fields: merged,
          opened: theirs,
          original: met.current,
          version: met.current.version ?? null,
          conflict: {
            theirs,
            version: met.current.version ?? 0,
            changedBy: met.changedBy,
            changedAt: met.changedAt,
            fields: both,
          },
        };
      }),
      takeTheirs: assign(({ context }) => {
        const { conflict } = context;
        const fields = { ...context.fields };
        for (const f of conflict?.fields ?? []) fields[f] = conflict!.theirs[f];
        return { fields, conflict: null };
      }),
      /** Their text and then mine in each joinable field both changed, to merge by hand. */
      keepBoth: assign(({ context }) => {
        const { conflict } = context;
        const fields = { ...context.fields };
        for (const f of conflict?.fields ?? [])
          if (options.joinable(f))
            fields[f] = `${String(conflict!.theirs[f])}${String(context.fields[f])}` as F[K];
        return { fields, conflict: null };
      }),
      clearConflict: assign({ conflict: null }),
      /** Tells the regions the form changed (see `form.changed`). */
      changed: raise((_, params: { field: K }) => ({ type: 'form.changed' as const, field: params.field })),
      keepChoices: assign({ choices: (_, params: { choices: Ch }) => params.choices }),
      /** Focus the first failing field (the screen supplies it). */
      focusField: (_, _params: { field: E }) => {},
      /** The record was saved: a toast, and the list updated. */
      notifySaved: (_, _params: { row: R | undefined; created: boolean; message: string }) => {},
      notifyFailed: (_, _params: { error: unknown }) => {},
      /** Kept on the device, to be sent when the connection is back ('Waiting to send'). */
      notifyQueued: (_, _params: { created: boolean }) => {},
      /** Saved together with someone else's change to other fields. */
      notifyMerged: (_, _params: { changedBy: string | null }) => {},
      /** Removes the send-queue entry this form took up (saved, or kept again as a new entry). */
      forgetQueued: (_, _params: { id: string | null }) => {},
      /** Removes this record's draft from the device (saved or discarded). */
      forgetDraft: (_, _params: DraftRef) => {},
    },
    guards: {
      isValid: ({ context }) => firstOf(options.errorsOf(context)) === undefined,
      isChanged: ({ context }) => changed(context),
      draftWasChecked: ({ context }) => context.draftChecked,
      /** A draft that holds something other than what the form shows now. */
      isDifferentDraft: ({ context }, params: { draft: RecordDraft<F> | null }) =>
        params.draft != null && changed({ fields: params.draft.values, opened: context.fields, file: null }),
      isAcceptedFile: (_, params: { file: File | null }) =>
        !params.file || !options.file || options.file.accepts(params.file),
      /** The field whose error is shown. */
      isErrorField: ({ context }, params: { field: K }) =>
        (context.errors as Record<string, unknown>)[params.field] !== undefined,
      /** The field lets the next one open (the `unlock` option). */
      hasValue: ({ context }, params: { field: K }) => options.unlock?.(params.field, context.fields) ?? true,
      /** Someone else saved meanwhile, on other fields only: save again on their version. */
      isMergeable: ({ context }, params: { error: unknown }) => {
        const met = conflictOf(params.error);
        return (
          met !== null &&
          meetTheirs(FIELDS, read, context.fields, context.opened, options.fieldsOf(met.current)).both
            .length === 0
        );
      },
      isConflict: (_, params: { error: unknown }) => conflictOf(params.error) !== null,
      /** The server named fields (400, 413, 415). */
      namesFields: (_, params: { error: unknown }) => firstOf(serverErrors(params.error)) !== undefined,
      /** A joinable field is among those both changed: 'Keep both' is offered. */
      canKeepBoth: ({ context }) => (context.conflict?.fields ?? []).some((f) => options.joinable(f)),
    },
  }).createMachine({
    id: options.id,
    initial: 'closed',
    context: closedContext(),
    states: {
      closed: {
        on: {
          'editor.open': {
            target: 'editing',
            actions: { type: 'open', params: ({ event }) => ({ row: event.row, defaults: event.defaults }) },
          },
          'editor.resume': {
            target: 'submitting',
            actions: { type: 'resume', params: ({ event }) => ({ change: event.change }) },
          },
        },
      },
      /** Parallel: `display`, `restore`, `autosave`, and `choices` and `unlock` where the options ask. */
      editing: {
        type: 'parallel',
        on: {
          'field.change': {
            actions: [
              { type: 'setField', params: ({ event }) => ({ field: event.field, value: event.value }) },
              { type: 'changed', params: ({ event }) => ({ field: event.field }) },
            ],
          },
          'file.choose': [
            {
              guard: { type: 'isAcceptedFile', params: ({ event }) => ({ file: event.file }) },
              actions: { type: 'setFile', params: ({ event }) => ({ file: event.file }) },
            },
            {
              target: '.display.invalid',
              reenter: true,
              actions: [
                { type: 'setFile', params: { file: null } },
                {
                  type: 'showErrors',
                  params: ({ context }) => ({
                    errors: options.file
                      ? ({ ...context.errors, [options.file.error]: options.file.code } as Partial<
                          Record<E, C>
                        >)
                      : context.errors,
                  }),
                },
              ],
            },
          ],
          'file.clear': {
            actions: [
              'clearFile',
              { type: 'changed', params: { field: options.file?.replaces ?? FIELDS[0] } },
            ],
          },
          'editor.submit': [
            { guard: 'isValid', target: 'submitting', actions: 'clearErrors' },
            {
              target: '.display.invalid',
              reenter: true,
              actions: [
                { type: 'showErrors', params: ({ context }) => ({ errors: options.errorsOf(context) }) },
                {
                  type: 'focusField',
                  params: ({ context }) => ({ field: firstOf(options.errorsOf(context))! }),
                },
              ],
            },
          ],
          'editor.cancel': close,
          'editor.dismiss': [{ guard: 'isChanged', target: 'confirmingDiscard' }, close],
        },
        // the regions are built above from the options; their names and states are the diagram's
        states: regions as unknown as Record<
          EditingRegion,
          { initial: string; states: Record<string, object> }
        >,
      },
      /** 'Discard what you typed?' over the form, after a backdrop click or Escape with changes. */
      confirmingDiscard: {
        on: {
          'discard.confirm': close,
          'discard.cancel': 'editing',
          'editor.dismiss': 'editing',
          'editor.cancel': close,
        },
      },
      submitting: {
        entry: 'startProgress',
        exit: 'stopProgress',
        invoke: {
          id: 'save',
          src: 'save',
          input: ({ context }) => ({
            input: options.saveInput(context),
            context: {
              opened: context.opened,
              fields: context.fields,
              original: context.original,
              recordId: context.recordId,
              version: context.version,
            },
          }),
        },
        on: {
          'upload.progress': {
            actions: {
              type: 'setProgress',
              params: ({ event }) => ({ loaded: event.loaded, total: event.total }),
            },
          },
          'save.succeeded': {
            target: 'closed',
            actions: [
              {
                type: 'notifySaved',
                params: ({ context, event }) => ({
                  row: event.answer.row,
                  created: context.mode === 'create',
                  message: event.answer.message,
                }),
              },
              { type: 'forgetQueued', params: ({ context }) => ({ id: context.queued }) },
              forget,
              'reset',
            ],
          },
          // no connection: the send queue holds it now (and its draft is no longer needed)
          'save.queued': {
            target: 'closed',
            actions: [
              { type: 'notifyQueued', params: ({ context }) => ({ created: context.mode === 'create' }) },
              { type: 'forgetQueued', params: ({ context }) => ({ id: context.queued }) },
              forget,
              'reset',
            ],
          },
          'save.failed': [
            {
              guard: { type: 'isMergeable', params: ({ event }) => ({ error: event.error }) },
              target: 'submitting',
              reenter: true,
              actions: [
                { type: 'meetTheirs', params: ({ event }) => ({ error: event.error }) },
                {
                  type: 'notifyMerged',
                  params: ({ context }) => ({ changedBy: context.conflict!.changedBy }),
                },
                'clearConflict',
              ],
            },
            {
              guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) },
              target: 'conflict',
              actions: { type: 'meetTheirs', params: ({ event }) => ({ error: event.error }) },
            },
            {
              // the server named fields: shown like the form's own messages
              guard: { type: 'namesFields', params: ({ event }) => ({ error: event.error }) },
              target: '#' + options.id + '.editing.display.invalid',
              actions: [
                { type: 'showErrors', params: ({ event }) => ({ errors: serverErrors(event.error) }) },
                {
                  type: 'focusField',
                  params: ({ event }) => ({ field: firstOf(serverErrors(event.error))! }),
                },
                { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
              ],
            },
            {
              target: 'editing',
              actions: { type: 'notifyFailed', params: ({ event }) => ({ error: event.error }) },
            },
          ],
        },
      },
      /**
       * '<name> changed this at 10:42 while you were editing': theirs beside mine for the fields both
       * changed; the form keeps what was typed until the person chooses. A choice made, the device's
       * copy of what was typed before it is not offered again.
       */
      conflict: {
        on: {
          'conflict.keepMine': { target: 'submitting', actions: 'clearConflict' },
          'conflict.takeTheirs': { target: 'editing', actions: ['takeTheirs', forget] },
          'conflict.keepBoth': { guard: 'canKeepBoth', target: 'editing', actions: ['keepBoth', forget] },
          'editor.cancel': close,
        },
      },
    },
  });
}

/** The smallest record an editor edits: a title and a text (the base machine's diagram and tests). */
export interface NoteRow extends EditedRow {
  id: number;
  title: string;
  text: string;
}
export type NoteFields = Pick<NoteRow, 'title' | 'text'>;

/**
 * The record editor with no options of its own beyond its two fields: what every editor has.
 * The blog post's and the job opening's editors are configurations like it
 * (blog-editor.machine.ts, job-form.machine.ts).
 */
export const recordEditorMachine = recordEditor<
  NoteRow,
  NoteFields,
  keyof NoteFields,
  'required',
  null,
  NoteFields
>({
  id: 'recordEditor',
  fields: ['title', 'text'],
  empty: { title: '', text: '' },
  fieldsOf: ({ title, text }) => ({ title, text }),
  idOf: (row) => row.id,
  read: (_field, value) => value.trim(),
  errorsOf: ({ fields }) => (fields.title.trim() ? {} : { title: 'required' }),
  errorFields: ['title', 'text'],
  errorDisplayMs: 2500,
  joinable: (field) => field === 'text',
  saveInput: ({ fields }) => fields,
});
