import { useTranslation } from 'react-i18next';
import { META_DESCRIPTION_ADVISED, META_TITLE_ADVISED } from '../../../../contract/blog';
import { type BlogField } from '../../../../contract/blog-form';
import { charCount } from '../../../../contract/rich-text';
import type { BlogEditorFields, TextField } from '../../../machines/blog-editor.machine';
import s from './blog-management.module.css';
import { FieldError } from '../shared/field-error';

/** Where posts live: the address field's fixed start. */
const BLOG_PATH = '/blog/';

/** The site's own host, as search results show it. */
const host = () => (typeof window === 'undefined' ? '' : window.location.host);

/**
 * The blog dialog's "Search and social" section (docs/decisions/025-blog-publishing.md): the address (slug), the meta title and
 * description with their length against what search engines show (about 60 and 160 characters),
 * the social image (the cover when empty) and a canonical address override; beside them, the post
 * as a search result and as a shared card. Closed until opened, or until one of its fields is refused.
 */
export function PostSeoFields({
  fields,
  slugOf,
  imageSrc,
  disabled,
  change,
  message,
  invalid,
  errorId,
  open,
}: {
  fields: BlogEditorFields;
  /** The post's address now (an edit), shown while the field is empty. */
  slugOf: string | undefined;
  /** The cover the dialog shows, the card's image when no social image is given. */
  imageSrc: string | null;
  disabled: boolean;
  change(field: TextField, value: string): void;
  message(field: BlogField): string | null;
  invalid(field: BlogField): Record<string, unknown>;
  errorId(field: BlogField): string;
  open: boolean;
}) {
  const { t } = useTranslation('blog-admin');
  const title = fields.meta_title.trim() || fields.title.trim();
  const description = fields.meta_description.trim() || fields.excerpt.trim();
  const slug = fields.slug.trim() || slugOf || '…';
  const cardImage = fields.social_image_url.trim() || imageSrc;
  const counted = (field: 'meta_title' | 'meta_description', advised: number) => {
    const count = charCount(fields[field].trim());
    return (
      <span id={`blog-${field}-count`} className={count > advised ? `${s.count} ${s.over}` : s.count}>
        {t('dialog.count', { count, max: advised })}
      </span>
    );
  };
  const describedBy = (field: BlogField, hint: string) => ({
    ...invalid(field),
    'aria-describedby': message(field) ? errorId(field) : hint,
  });

  return (
    <details className={s.seo} open={open || undefined}>
      <summary>{t('dialog.seo')}</summary>
      <div className={s.seoBody}>
        <div className={s.field}>
          <label htmlFor="blog-slug">{t('dialog.slug')}</label>
          <div className={s.slugRow}>
            <span aria-hidden="true">{BLOG_PATH}</span>
            <input
              id="blog-slug"
              value={fields.slug}
              placeholder={slugOf || t('dialog.placeholder.slug')}
              disabled={disabled}
              autoCapitalize="none"
              spellCheck={false}
              onChange={(e) => change('slug', e.target.value)}
              {...invalid('slug')}
            />
          </div>
          <FieldError id={errorId('slug')} message={message('slug')} />
        </div>
        <div className={s.field}>
          <label htmlFor="blog-meta-title">{t('dialog.metaTitle')}</label>
          <input
            id="blog-meta-title"
            value={fields.meta_title}
            placeholder={t('dialog.placeholder.metaTitle')}
            disabled={disabled}
            onChange={(e) => change('meta_title', e.target.value)}
            {...describedBy('meta_title', 'blog-meta_title-count')}
          />
          {counted('meta_title', META_TITLE_ADVISED)}
          <FieldError id={errorId('meta_title')} message={message('meta_title')} />
        </div>
        <div className={s.field}>
          <label htmlFor="blog-meta-description">{t('dialog.metaDescription')}</label>
          <textarea
            id="blog-meta-description"
            rows={2}
            value={fields.meta_description}
            placeholder={t('dialog.placeholder.metaDescription')}
            disabled={disabled}
            onChange={(e) => change('meta_description', e.target.value)}
            {...describedBy('meta_description', 'blog-meta_description-count')}
          />
          {counted('meta_description', META_DESCRIPTION_ADVISED)}
          <FieldError id={errorId('meta_description')} message={message('meta_description')} />
        </div>
        <div className={s.row}>
          <div className={s.field}>
            <label htmlFor="blog-social-image">{t('dialog.socialImage')}</label>
            <input
              id="blog-social-image"
              type="url"
              inputMode="url"
              value={fields.social_image_url}
              placeholder="https://"
              disabled={disabled}
              onChange={(e) => change('social_image_url', e.target.value)}
              {...describedBy('social_image_url', 'blog-social-image-hint')}
            />
            <p id="blog-social-image-hint" className={s.hint}>
              {t('dialog.socialImageHint')}
            </p>
            <FieldError id={errorId('social_image_url')} message={message('social_image_url')} />
          </div>
          <div className={s.field}>
            <label htmlFor="blog-canonical">{t('dialog.canonical')}</label>
            <input
              id="blog-canonical"
              type="url"
              inputMode="url"
              value={fields.canonical_url}
              placeholder="https://"
              disabled={disabled}
              onChange={(e) => change('canonical_url', e.target.value)}
              {...describedBy('canonical_url', 'blog-canonical-hint')}
            />
            <p id="blog-canonical-hint" className={s.hint}>
              {t('dialog.canonicalHint')}
            </p>
            <FieldError id={errorId('canonical_url')} message={message('canonical_url')} />
          </div>
        </div>
        <div className={s.snippets}>
          <section aria-label={t('dialog.serpPreview')}>
            <p className={s.snippetLabel} aria-hidden="true">
              {t('dialog.serpPreview')}
            </p>
            <div className={s.serp}>
              <p className={s.serpUrl}>{[host(), 'blog', slug].join(' › ')}</p>
              <p className={s.serpTitle}>{clip(title, META_TITLE_ADVISED)}</p>
              <p className={s.snippetText}>{clip(description, META_DESCRIPTION_ADVISED)}</p>
            </div>
          </section>
          <section aria-label={t('dialog.cardPreview')}>
            <p className={s.snippetLabel} aria-hidden="true">
              {t('dialog.cardPreview')}
            </p>
            <div className={s.card}>
              <div className={s.cardImage}>
                {cardImage && <img src={cardImage} alt="" referrerPolicy="no-referrer" />}
              </div>
              <div className={s.cardText}>
                <p className={s.serpUrl}>{host()}</p>
                <p>
                  <strong>{title}</strong>
                </p>
                <p className={s.snippetText}>{clip(description, 120)}</p>
              </div>
            </div>
          </section>
        </div>
      </div>
    </details>
  );
}

/** What a search result shows of a long text: its first `max` characters and '…'. */
function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : text;
}
