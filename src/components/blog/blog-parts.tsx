import { lazy, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router-dom';
import {
  coverSources,
  parsePublicationDate,
  previewOf,
  tagList,
  tagPath,
  type COVER_SIZES,
} from '../../../contract/blog';
import s from './blog-parts.module.css';

// The sanitiser (DOMPurify) loads with the first 'Read More', not with the list.
const RichContent = lazy(() => import('./rich-content').then((m) => ({ default: m.RichContent })));

/**
 * Pieces of a blog post shared by the public blog, the permalink page and the admin screen:
 * the featured image (or the 'No Image' placeholder), the date in the reader's locale, and the
 * 200-character preview with 'Read More' / 'Show Less'. Readers never see a post's status.
 */

const noop = () => () => {};

/**
 * The reader's locale for dates: the browser's preferred locale of the page's language (so an
 * English page reads 'August 6, 2025' in the US and '6 August 2025' in the UK), else the page's
 * language. The server render and hydration use the page's language, then the browser's.
 */
export function useReaderLocale(lang: string): string {
  return useSyncExternalStore(
    noop,
    () =>
      typeof navigator === 'undefined'
        ? lang
        : ((navigator.languages ?? [navigator.language]).find((l) => l.split('-')[0] === lang) ?? lang),
    () => lang,
  );
}

const formatters = new Map<string, Intl.DateTimeFormat>();

export function formatPostDate(text: string, locale: string): { day: string | null; label: string } {
  const day = parsePublicationDate(text);
  if (!day) return { day: null, label: text };
  try {
    let format = formatters.get(locale);
    if (!format) {
      format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
      formatters.set(locale, format);
    }
    return { day, label: format.format(new Date(`${day}T00:00:00Z`)) };
  } catch {
    return { day, label: text };
  }
}

export function PostDate({ text, lang }: { text: string; lang: string }) {
  const locale = useReaderLocale(lang);
  const { day, label } = formatPostDate(text, locale);
  return day ? <time dateTime={day}>{label}</time> : <span>{label}</span>;
}

/** A post's tags, each a link to its page (/blog/tag/{tag}); nothing when it has none. */
export function PostTags({ tags, label }: { tags: string | undefined; label: string }) {
  const names = tagList(tags ?? '');
  if (names.length === 0) return null;
  return (
    <ul className={s.tags} aria-label={label}>
      {names.map((name) => (
        <li key={name}>
          <Link to={tagPath(name)}>{name}</Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * The featured image, or 'No Image' when there is none or it cannot be loaded. An image that
 * failed before hydration (no onError then) is noticed after mount.
 */
export function BlogImage({
  src,
  alt,
  noImage,
  priority = false,
  className,
  where = 'card',
}: {
  src: string | null | undefined;
  alt: string;
  noImage: string;
  priority?: boolean;
  className?: string;
  /** Where it is drawn (its `sizes`): a card of a list, or a post's page. */
  where?: keyof typeof COVER_SIZES;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const img = ref.current;
    if (img && img.complete && img.naturalWidth === 0 && src) setFailedSrc(src);
  }, [src]);
  const frame = className ? `${s.frame} ${className}` : s.frame;
  const sources = coverSources(src, where);
  if (!src || failedSrc === src) {
    return (
      <div className={`${frame} ${s.noImage}`}>
        <span>{noImage}</span>
      </div>
    );
  }
  return (
    <div className={frame}>
      <img
        ref={ref}
        src={sources?.src ?? src}
        srcSet={sources?.srcset}
        sizes={sources?.sizes}
        alt={alt}
        width={1200}
        height={630}
        loading={priority ? 'eager' : 'lazy'}
        decoding="async"
        fetchPriority={priority ? 'high' : undefined}
        referrerPolicy="no-referrer"
        onError={() => setFailedSrc(src)}
      />
    </div>
  );
}

/** The first 200 characters of the content; 'Read More' shows all of it, 'Show Less' folds it. */
export function PostPreview({
  content,
  readMore,
  showLess,
  id,
}: {
  content: string;
  readMore: string;
  showLess: string;
  id: string;
}) {
  const [open, setOpen] = useState(false);
  const preview = previewOf(content);
  return (
    <div className={s.preview}>
      <div id={id}>
        {open ? (
          <Suspense fallback={<p className={s.previewText}>{preview.text}</p>}>
            <RichContent html={content} />
          </Suspense>
        ) : (
          <p className={s.previewText}>{preview.text}</p>
        )}
      </div>
      {preview.truncated && (
        <button
          type="button"
          className={s.toggle}
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen((v) => !v)}
        >
          {open ? showLess : readMore}
        </button>
      )}
    </div>
  );
}
