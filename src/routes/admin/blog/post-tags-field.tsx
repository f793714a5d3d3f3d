import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { slugify, tagList } from '../../../../contract/blog';
import { type BlogField, type BlogTag } from '../../../../contract/blog-form';
import { FieldError } from '../shared/field-error';
import s from './blog-management.module.css';

/**
 * The blog dialog's Tags: each tag a chip with a button that removes it, and a box where Enter or
 * a comma adds the tag typed, with the tags in use offered as suggestions (a datalist). The field
 * holds the tags as one text, ', ' between them, like the post.
 */
export function PostTagsField({
  value,
  suggestions,
  disabled,
  onChange,
  message,
  invalid,
  errorId,
}: {
  value: string;
  suggestions: BlogTag[];
  disabled: boolean;
  onChange(value: string): void;
  message: string | null;
  invalid: Record<string, unknown>;
  errorId: (field: BlogField) => string;
}) {
  const { t } = useTranslation('blog-admin');
  const [typed, setTyped] = useState('');
  const tags = tagList(value);
  const add = (text: string) => {
    const next = tagList([...tags, ...text.split(',')].join(','));
    if (next.length !== tags.length) onChange(next.join(', '));
    setTyped('');
  };
  const remove = (name: string) => onChange(tags.filter((tag) => tag !== name).join(', '));
  const have = new Set(tags.map(slugify));
  return (
    <div className={s.field}>
      <label htmlFor="blog-tags">{t('dialog.tags')}</label>
      {tags.length > 0 && (
        <ul className={s.chips} aria-label={t('dialog.tagsChosen')}>
          {tags.map((tag) => (
            <li key={tag} className={s.chip}>
              <span>{tag}</span>
              <button
                type="button"
                disabled={disabled}
                onClick={() => remove(tag)}
                aria-label={t('dialog.removeTag', { tag })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id="blog-tags"
        value={typed}
        list="blog-tag-suggestions"
        placeholder={t('dialog.placeholder.tags')}
        disabled={disabled}
        autoComplete="off"
        onChange={(e) => {
          // a comma (typed or pasted) ends a tag
          if (e.target.value.includes(',')) add(e.target.value);
          else setTyped(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && typed.trim()) {
            e.preventDefault();
            add(typed);
          } else if (e.key === 'Backspace' && typed === '' && tags.length > 0) {
            remove(tags[tags.length - 1]);
          }
        }}
        // a tag typed and left is kept, not lost
        onBlur={() => typed.trim() && add(typed)}
        {...invalid}
        aria-describedby={message ? errorId('tags') : 'blog-tags-hint'}
      />
      <datalist id="blog-tag-suggestions">
        {suggestions
          .filter((tag) => !have.has(tag.slug))
          .map((tag) => (
            <option key={tag.slug} value={tag.name} />
          ))}
      </datalist>
      <p id="blog-tags-hint" className={s.hint}>
        {t('dialog.tagsHint')}
      </p>
      <FieldError id={errorId('tags')} message={message} />
    </div>
  );
}
