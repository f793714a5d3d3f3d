import { useMachine } from '@xstate/react';
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { BLOG_IMAGE_ACCEPT } from '../../../../contract/blog';
import type { BlogTextImage } from '../../../../contract/blog-form';
import { ALT_MAX } from '../../../machines/text-image.machine';
import { textImageLive } from './text-image.live';
import s from './blog-management.module.css';

export interface PostTextImageHandle {
  /** Opens the panel (with a picture dropped or pasted into the text, if any). */
  open(file?: File): void;
}

/**
 * "Image in the text" under the blog editor's toolbar (text-image.machine.ts): the file and its
 * alt text, then the upload; the image goes where the cursor was. `onInsert` puts it in the
 * editor, `onClose` gives the editor its focus back.
 */
export function PostTextImage({
  onInsert,
  onClose,
  disabled,
  ref,
}: {
  onInsert(image: BlogTextImage, alt: string): void;
  onClose(): void;
  disabled?: boolean;
  ref?: Ref<PostTextImageHandle>;
}) {
  const { t } = useTranslation('blog-admin');
  // (`onInsert` is the dialog's one callback: the machine is made once with it)
  const [machine] = useState(() => textImageLive(onInsert));
  const [state, send] = useMachine(machine);
  const fileRef = useRef<HTMLInputElement>(null);
  const altRef = useRef<HTMLInputElement>(null);
  const { file, alt, error } = state.context;
  // the file the input shows; one dropped or pasted into the text is named under it
  const [picked, setPicked] = useState<File | null>(null);
  const open = !state.matches('closed');
  const uploading = state.matches('uploading');

  useImperativeHandle(ref, () => ({ open: (dropped) => send({ type: 'image.open', file: dropped }) }), [
    send,
  ]);

  // opened: the first thing to fill in has the focus; closed again: the editor has it
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) (file ? altRef.current : fileRef.current)?.focus();
    if (!open && wasOpen.current) onClose();
    wasOpen.current = open;
  }, [open, file, onClose]);

  if (!open) return null;
  const fileError = error === 'fileRequired' || error === 'notImage' || error === 'tooLarge';
  return (
    <section
      className={s.textImage}
      aria-labelledby="text-image-title"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          // the panel closes, not the whole dialog (a cancelled keydown makes no close request)
          e.preventDefault();
          e.stopPropagation();
          send({ type: 'image.cancel' });
        }
      }}
    >
      <h3 id="text-image-title" className={s.textImageTitle}>
        {t('image.title')}
      </h3>
      <div className={s.field}>
        <label htmlFor="text-image-file">{t('image.file')}</label>
        <input
          ref={fileRef}
          id="text-image-file"
          type="file"
          accept={BLOG_IMAGE_ACCEPT}
          disabled={uploading || disabled}
          aria-invalid={fileError || undefined}
          aria-describedby={fileError ? 'text-image-error' : 'text-image-file-hint'}
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            setPicked(chosen);
            send({ type: 'image.file', file: chosen });
          }}
        />
        {file && file !== picked && (
          <p className={s.fileName}>{t('dialog.chosenFile', { name: file.name })}</p>
        )}
        <p id="text-image-file-hint" className={s.hint}>
          {t('image.fileHint')}
        </p>
      </div>
      <div className={s.field}>
        <label htmlFor="text-image-alt">{t('image.alt')}</label>
        <input
          ref={altRef}
          id="text-image-alt"
          value={alt}
          maxLength={ALT_MAX}
          disabled={uploading || disabled}
          placeholder={t('image.altPlaceholder')}
          aria-invalid={error === 'altRequired' || undefined}
          aria-describedby={error === 'altRequired' ? 'text-image-error' : 'text-image-alt-hint'}
          onChange={(e) => send({ type: 'image.alt', alt: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              // Enter inserts the image, it does not send the post
              e.preventDefault();
              send({ type: 'image.insert' });
            }
          }}
        />
        <p id="text-image-alt-hint" className={s.hint}>
          {t('image.altHint')}
        </p>
      </div>
      {error && (
        <p id="text-image-error" className={s.error} role="alert">
          {t(`image.errors.${error}`)}
        </p>
      )}
      <div className={s.textImageActions}>
        <button
          type="button"
          className={s.primary}
          disabled={uploading || disabled}
          onClick={() => send({ type: 'image.insert' })}
        >
          {uploading ? t('image.uploading') : t('image.insert')}
        </button>
        <button type="button" className={s.secondary} onClick={() => send({ type: 'image.cancel' })}>
          {t('cancel')}
        </button>
      </div>
    </section>
  );
}
