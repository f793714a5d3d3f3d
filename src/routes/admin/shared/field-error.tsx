import s from './admin-controls.module.css';

/**
 * A field's message under it, in the back office's forms. The live region stays in the DOM so the
 * message is announced when it appears; empty, it takes no room (admin-controls.module.css).
 */
export function FieldError({ id, message }: { id: string; message: string | null }) {
  return (
    <p id={id} className={s.error} role="alert" aria-live="assertive">
      {message}
    </p>
  );
}
