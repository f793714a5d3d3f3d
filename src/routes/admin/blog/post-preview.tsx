import { useMachine } from '@xstate/react';
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { BlogPostRow } from '../../../../contract/blog';
import { Modal } from '../../../components/modal';
import { LIVE_PREVIEW_PATH, PREVIEW_MESSAGE, PREVIEW_READY } from '../../../components/blog/preview-messages';
import { postPreviewLive } from './post-preview.live';
import s from './blog-management.module.css';

export interface PostPreviewHandle {
  open(post: BlogPostRow): void;
}

/**
 * The blog editor's Preview (post-preview.machine.ts): the post the dialog holds, in the public
 * layout, in a frame of this site at a desktop's width or a phone's (390 px); for a saved post,
 * "Share preview" makes a signed address that works for 7 days without an account. The desktop
 * frame lays the page out at DESKTOP_WIDTH and is scaled down to the dialog, so it shows the
 * desktop header and columns, never the phone menu a narrower frame would get.
 */
export const DESKTOP_WIDTH = 1280;

/** The scale that fits a frame DESKTOP_WIDTH wide into the element the returned ref is set on. */
function useFitScale() {
  const [scale, setScale] = useState(1);
  const ref = useCallback((el: HTMLElement | null) => {
    if (!el) return;
    const fit = () => setScale(Math.min(1, el.clientWidth / DESKTOP_WIDTH));
    const watch = new ResizeObserver(fit);
    watch.observe(el);
    return () => watch.disconnect();
  }, []);
  return [scale, ref] as const;
}

export function PostPreview({ ref }: { ref?: Ref<PostPreviewHandle> }) {
  const { t, i18n } = useTranslation('blog-admin');
  const [machine] = useState(() => postPreviewLive(i18n));
  const [state, send] = useMachine(machine);
  const frame = useRef<HTMLIFrameElement>(null);
  const [scale, fitRef] = useFitScale();
  const { post, link } = state.context;
  useImperativeHandle(ref, () => ({ open: (p) => send({ type: 'preview.open', post: p }) }), [send]);

  // the frame asks for the post once it has loaded; it is sent to this site's frame only
  useEffect(() => {
    if (!post) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      if ((event.data as { type?: unknown } | null)?.type !== PREVIEW_READY) return;
      frame.current?.contentWindow?.postMessage({ type: PREVIEW_MESSAGE, post }, window.location.origin);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [post]);

  const phone = state.matches({ open: { width: 'phone' } });
  const share = state.matches('closed') ? null : (state.value as { open: { share: string } }).open.share;
  return (
    <Modal
      open={!state.matches('closed')}
      wide
      title={t('preview.title')}
      onClose={() => send({ type: 'preview.close' })}
    >
      <div className={s.previewBar}>
        <div role="group" aria-label={t('preview.width')} className={s.segmented}>
          <button type="button" aria-pressed={!phone} onClick={() => send({ type: 'width.desktop' })}>
            {t('preview.desktop')}
          </button>
          <button type="button" aria-pressed={phone} onClick={() => send({ type: 'width.phone' })}>
            {t('preview.phone')}
          </button>
        </div>
        {post && post.blog_id > 0 ? (
          <div className={s.shareActions}>
            <button
              type="button"
              className={s.secondary}
              disabled={share === 'making' || share === 'revoking'}
              onClick={() => send({ type: 'share.make' })}
            >
              {share === 'making' ? t('preview.sharing') : t('preview.share')}
            </button>
            <button
              type="button"
              className={s.secondary}
              disabled={share === 'making' || share === 'revoking'}
              onClick={() => send({ type: 'share.revoke' })}
            >
              {share === 'revoking' ? t('preview.revoking') : t('preview.revoke')}
            </button>
          </div>
        ) : (
          <p className={s.hint}>{t('preview.saveToShare')}</p>
        )}
      </div>
      {share === 'failed' && (
        <p className={s.error} role="alert">
          {t('preview.shareFailed')}
        </p>
      )}
      {share === 'revokeFailed' && (
        <p className={s.error} role="alert">
          {t('preview.revokeFailed')}
        </p>
      )}
      {share === 'revoked' && (
        <p className={s.hint} role="status">
          {t('preview.revoked')}
        </p>
      )}
      {link && (
        <div className={s.shareLink}>
          <label htmlFor="blog-share-link">
            {t('preview.link', {
              date: new Date(link.expires_at).toLocaleString(i18n.language, {
                dateStyle: 'medium',
                timeStyle: 'short',
              }),
            })}
          </label>
          <div className={s.imageRow}>
            <input id="blog-share-link" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
            <button type="button" className={s.secondary} onClick={() => send({ type: 'share.copy' })}>
              {t('preview.copy')}
            </button>
          </div>
        </div>
      )}
      <div className={s.previewStage}>
        <div ref={fitRef} className={phone ? s.phoneFit : s.desktopFit}>
          <iframe
            ref={frame}
            title={t('preview.frame')}
            src={LIVE_PREVIEW_PATH}
            className={phone ? `${s.previewFrame} ${s.phoneFrame}` : s.previewFrame}
            style={
              phone
                ? undefined
                : { width: DESKTOP_WIDTH, height: `${100 / scale}%`, transform: `scale(${scale})` }
            }
          />
        </div>
      </div>
      <div className={s.actions}>
        <button type="button" className={s.primary} onClick={() => send({ type: 'preview.close' })}>
          {t('preview.close')}
        </button>
      </div>
    </Modal>
  );
}
