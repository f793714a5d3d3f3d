import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { ReadTime } from './read-time';
import type { BlogPostRow } from '../../../contract/blog';
import { BlogImage, PostDate, PostTags } from './blog-parts';
import { ServerRichHtml } from './rich-html';
import s from '../../routes/blog-post.module.css';

// A post loaded in the browser (in-app navigation, a preview) is sanitised there; the sanitiser loads then.
const RichContent = lazy(() => import('./rich-content').then((m) => ({ default: m.RichContent })));

/**
 * A post as readers see it on its page: title, date, read time, excerpt, cover (with its alt
 * text) and text. The permalink page and the previews (routes/blog-preview.tsx) show the same.
 * `serverHtml`: the content was sanitised by the server for this very page, shown as is.
 */
export function PostArticle({
  post,
  serverHtml,
  before,
}: {
  post: BlogPostRow;
  serverHtml: boolean;
  /** Shown above the header (the offline copy's date). */
  before?: React.ReactNode;
}) {
  const { t, i18n } = useTranslation('blog');
  return (
    <article className={s.article} aria-labelledby="post-title">
      {before}
      <header className={s.header}>
        <h1 id="post-title" className={s.title}>
          {post.title}
        </h1>
        <p className={s.meta}>
          <span>
            <PostDate text={post.publication_date} lang={i18n.language} />
          </span>
          <ReadTime text={post.read_time} />
          {post.author_name && <span>{t('post.by', { name: post.author_name })}</span>}
        </p>
        <p className={s.excerpt}>{post.excerpt}</p>
        <PostTags tags={post.tags} label={t('tag.label')} />
      </header>
      <BlogImage
        src={post.image_url}
        alt={post.cover_alt ?? ''}
        noImage={t('noImage')}
        priority
        where="post"
        className={s.image}
      />
      {serverHtml ? (
        <ServerRichHtml html={post.content} className={s.content} />
      ) : (
        <Suspense fallback={<div className={s.content} />}>
          <RichContent html={post.content} className={s.content} />
        </Suspense>
      )}
    </article>
  );
}
