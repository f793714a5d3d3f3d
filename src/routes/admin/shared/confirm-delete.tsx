import { Modal } from '../../../components/modal';
import c from './admin-controls.module.css';

/**
 * The question before a record is deleted (an opening, a blog post): what and which, Cancel and
 * Delete; both wait while the deletion runs. The answers are the events its list machine expects.
 */
export function ConfirmDelete({
  open,
  deleting,
  title,
  question,
  which,
  labels,
  send,
}: {
  open: boolean;
  deleting: boolean;
  title: string;
  question: string;
  /** The record's name, shown under the question. */
  which: string | undefined;
  labels: { cancel: string; delete: string; deleting: string };
  send(event: { type: 'delete.cancel' | 'delete.confirm' }): void;
}) {
  return (
    <Modal open={open} title={title} onClose={() => send({ type: 'delete.cancel' })}>
      <p>{question}</p>
      {which && <p className={c.which}>{which}</p>}
      <div className={c.dialogActions}>
        <button
          type="button"
          className={c.secondary}
          onClick={() => send({ type: 'delete.cancel' })}
          disabled={deleting}
        >
          {labels.cancel}
        </button>
        <button
          type="button"
          className={c.danger}
          onClick={() => send({ type: 'delete.confirm' })}
          disabled={deleting}
        >
          {deleting ? labels.deleting : labels.delete}
        </button>
      </div>
    </Modal>
  );
}
