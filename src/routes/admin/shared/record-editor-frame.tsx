import { useMachine } from '@xstate/react';
import { useEffect, useImperativeHandle, useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { RevisionEntity } from '../../../../contract/revisions';
import { ConflictPrompt } from '../../../components/conflict-prompt';
import { DraftPrompts } from '../../../components/discard-prompt';
import { Modal } from '../../../components/modal';
import type {
  QueuedChange,
  RecordEditorContext,
  RecordEditorEvent,
} from '../../../machines/record-editor.machine';
import { HistoryPanel } from './history-panel';
import { historyLive } from './history.live';
import { OthersEditing } from './others-editing';
import { preloadEditor } from './lazy-editor';
import s from './admin-controls.module.css';
import frame from './record-editor-frame.module.css';

/** What the frame reads of a record editor's snapshot (record-editor.machine.ts). */
export interface EditorSnapshot<R, F> {
  matches(value: unknown): boolean;
  can(event: { type: 'conflict.keepBoth' }): boolean;
  context: RecordEditorContext<R, F, string, unknown, unknown>;
}

/** The dialog's handle for its screen: open a record (or a new one), take up a queued change. */
export interface RecordEditorHandle<R, F> {
  open(row?: R): void;
  /** Takes up a change made offline that met someone else's; false while the dialog is in use. */
  resume(change: QueuedChange<R, F>): boolean;
}

/** The handle of a record editor's dialog; `defaults` are a new record's first values. */
export function useRecordEditorHandle<R, F>(
  ref: Ref<RecordEditorHandle<R, F>> | undefined,
  state: EditorSnapshot<R, F>,
  send: (event: RecordEditorEvent<R, F>) => void,
  defaults?: () => Partial<F>,
) {
  const closed = state.matches('closed');
  useImperativeHandle(
    ref,
    () => ({
      open: (row) => send({ type: 'editor.open', row, defaults: row ? undefined : defaults?.() }),
      resume: (change) => {
        if (!closed) return false;
        send({ type: 'editor.resume', change });
        return true;
      },
    }),
    [send, closed, defaults],
  );
}

/**
 * One frame for every record editor's dialog (docs/decisions/036-record-editor.md): the dialog,
 * 'Restore unsaved changes?' and 'Discard what you typed?', someone else's save beside mine
 * (`conflict`), who else is editing, the History view (a restore closes the form: `onRestored`),
 * and the buttons: History, the editor's own (`actions`), Cancel, and the submit button. The
 * record's fields are the children; `busy` shows while saving (an upload's progress).
 */
export function RecordEditorFrame<R, F>({
  state,
  send,
  entity,
  title,
  labelOf,
  readable,
  statusLabel,
  changed,
  submitLabel,
  busy,
  actions,
  onRestored,
  children,
}: {
  state: EditorSnapshot<R, F>;
  send: (event: RecordEditorEvent<R, F>) => void;
  /** The record's kind where it keeps revisions: History, and who else is editing it. */
  entity?: RevisionEntity;
  title: string;
  /** A field's label. */
  labelOf(field: keyof F & string): string;
  /** A field's value as a person reads it. */
  readable(field: keyof F & string, value: unknown): string;
  /** The record's status as the history names it. */
  statusLabel?(value: unknown): string;
  /** The form holds a change (History waits until it is saved or cancelled). */
  changed: boolean;
  submitLabel: string;
  busy?: ReactNode;
  actions?: ReactNode;
  onRestored(row: R): void;
  children: ReactNode;
}) {
  const { t, i18n } = useTranslation('admin');
  // the editor's chunk comes with the screen: a dialog opened after the connection dropped has it
  useEffect(() => void preloadEditor().catch(() => undefined), []);
  const [historyMachine] = useState(() =>
    historyLive(i18n, (row) => {
      send({ type: 'editor.cancel' });
      onRestored(row as R);
    }),
  );
  const [history, sendHistory] = useMachine(historyMachine);
  const { context } = state;
  const { conflict, fields, mode, recordId } = context;
  const open = !state.matches('closed');
  const submitting = state.matches('submitting');
  const inHistory = !history.matches('closed');
  // the dialog closed (Escape, a save): its history view closes with it
  useEffect(() => {
    if (!open) sendHistory({ type: 'history.close' });
  }, [open, sendHistory]);

  return (
    <Modal open={open} wide title={title} onClose={() => send({ type: 'editor.dismiss' })}>
      <DraftPrompts
        offered={state.matches({ editing: { restore: 'offering' } }) ? context.draft : null}
        confirming={state.matches('confirmingDiscard')}
        send={send}
      />
      {state.matches('conflict') && conflict && (
        <ConflictPrompt
          changedBy={conflict.changedBy}
          changedAt={conflict.changedAt}
          fields={conflict.fields.map((field) => ({
            label: labelOf(field),
            theirs: readable(field, conflict.theirs[field]),
            yours: readable(field, fields[field]),
          }))}
          canKeepBoth={state.can({ type: 'conflict.keepBoth' })}
          onKeepMine={() => send({ type: 'conflict.keepMine' })}
          onTakeTheirs={() => send({ type: 'conflict.takeTheirs' })}
          onKeepBoth={() => send({ type: 'conflict.keepBoth' })}
        />
      )}
      {entity && <OthersEditing entity={entity} recordId={open && mode === 'edit' ? recordId : null} />}
      {inHistory && (
        <HistoryPanel
          state={history}
          send={sendHistory}
          labelOf={(field) => (field === 'status' ? t('history.status') : labelOf(field as keyof F & string))}
          readable={(field, value) =>
            field === 'status' && statusLabel
              ? statusLabel(value)
              : readable(field as keyof F & string, value ?? '')
          }
        />
      )}
      <form
        hidden={inHistory}
        className={s.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'editor.submit' });
        }}
      >
        {children}
        {submitting && busy}
        <div className={`${s.actions} ${frame.actions}`}>
          {mode === 'edit' && entity && (
            <button
              type="button"
              className={s.secondary}
              // what is typed and not saved would be hidden behind the history: save or cancel first
              disabled={submitting || changed}
              title={changed ? t('history.unsaved') : undefined}
              onClick={() =>
                sendHistory({
                  type: 'history.open',
                  record: { entity, recordId, version: context.version ?? 1 },
                })
              }
            >
              {t('history.open')}
            </button>
          )}
          {actions}
          <button
            type="button"
            className={s.secondary}
            onClick={() => send({ type: 'editor.cancel' })}
            disabled={submitting}
          >
            {t('actions.cancel')}
          </button>
          {/* while someone else's save is shown beside this one, the form waits for a choice */}
          <button type="submit" className={s.primary} disabled={submitting || state.matches('conflict')}>
            {submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}
