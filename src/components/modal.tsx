import { useEffect, useId, useRef, type ReactNode } from 'react';
import s from './modal.module.css';

/**
 * A modal dialog on the native <dialog>: focus stays inside, Escape closes, focus returns to
 * what opened it, and the page behind does not scroll.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
  closeOnBackdrop = true,
  wide = false,
}: {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  closeOnBackdrop?: boolean;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      const opener = document.activeElement as HTMLElement | null;
      dialog.showModal();
      document.documentElement.style.overflow = 'hidden';
      return () => {
        dialog.close();
        document.documentElement.style.overflow = '';
        opener?.focus?.();
      };
    }
  }, [open]);
  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={wide ? `${s.dialog} ${s.wide}` : s.dialog}
      aria-labelledby={titleId}
      onCancel={(e) => {
        // a file input's dismissed picker fires a bubbling `cancel` too: only the dialog's own
        // (Escape) closes it
        if (e.target !== e.currentTarget) return;
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        if (closeOnBackdrop && e.target === e.currentTarget) onClose();
      }}
    >
      <div className={s.body}>
        <h2 id={titleId} className={s.title}>
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
