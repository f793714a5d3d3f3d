import { useMachine } from '@xstate/react';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { ReadTime } from '../components/blog/read-time';
import { Link, useParams } from 'react-router-dom';
import { slugify, tagList, type BlogPostRow } from '../../contract/blog';
import { formatSavedAt } from '../offline/format';
import { BlogImage, PostDate, PostPreview, PostTags } from '../components/blog/blog-parts';
import { useKeptPageAt, usePageData } from '../components/page-data';
import { PageMeta } from '../components/page-meta';
import { PagePager } from '../components/pagination';
import { blogListInput, liveBlogListMachine } from './blog.live';
import s from './blog.module.css';

const NONE: BlogPostRow[] = [];

/**
 * Public blog: published posts, newest first, 10 a page; on /blog/tag/{tag}, a tag's posts (the
 * server renders that page with the tag's name as page data).
 */
export default function BlogRoute() {
  const { tag } = useParams();
  // another tag is another list: new machine, new state
  return <BlogPage key={tag ?? ''} tag={tag} />;
}

function BlogPage({ tag }: { tag?: string }) {
  // the offline namespace too: reached inside the app, the page may be the first to need it
  const { t, i18n } = useTranslation(['blog', 'offline']);
  const data = usePageData();
  // the first page the server rendered for this very list: shown as is, nothing to load first
  const fromServer = data?.blogRows && (data.tag ?? undefined) === tag ? data.blogRows : undefined;
  const [state, send, list] = useMachine(liveBlogListMachine, {
    input: { ...blogListInput(tag), rows: fromServer },
  });
  // the page itself is a copy kept on this device (the service worker marks it): say so, after
  // hydration, as when the list's own copy is shown
  const keptPageAt = useKeptPageAt(!!fromServer);
  const { rows, kept, keptAt } = state.context;
  const failed = state.matches({ failed: 'settled' });
  const loading = !state.matches('ready') && !failed;
  // The cards are built in a deferred (time-sliced) render: the page stays responsive while ten
  // posts are laid out, instead of one long task right after the fetch.
  const shown = useDeferredValue(failed && rows.length === 0 ? (kept ?? NONE) : rows);
  // the tag's name as its posts write it: from the server's render, else from a post shown
  const tagName = tag
    ? ((data?.tag === tag ? data.tagName : undefined) ??
      shown.flatMap((post) => tagList(post.tags ?? '')).find((name) => slugify(name) === tag) ??
      tag)
    : undefined;
  const path = tag ? `/blog/tag/${encodeURIComponent(tag)}` : '/blog';

  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <PageMeta
        title={tagName ? t('tag.metaTitle', { tag: tagName }) : t('metaTitle')}
        description={tagName ? t('tag.metaDescription', { tag: tagName }) : t('metaDescription')}
        path={path}
        jsonLd={[
          {
            '@context': 'https://schema.org',
            '@type': 'Blog',
            name: 'Manna Blog',
            description: t('metaDescription'),
            url: `%PUBLIC_URL%${path}`,
            publisher: { '@type': 'Organization', name: 'Manna', url: '%PUBLIC_URL%/' },
          },
        ]}
      />
      <header className={s.hero}>
        <div className="container">
          {tagName ? (
            <>
              <p className={s.crumb}>
                <Link to="/blog">← {t('tag.all')}</Link>
              </p>
              <h1>{t('tag.title', { tag: tagName })}</h1>
            </>
          ) : (
            <>
              <h1>{t('title')}</h1>
              <p className={s.tagline}>{t('tagline')}</p>
            </>
          )}
          <a className={s.feed} href={`${path}/rss.xml`} type="application/rss+xml">
            {t('rss')}
          </a>
        </div>
      </header>

      <div className={`container ${s.body}`}>
        {keptPageAt && !failed && (
          <p className={s.quiet} role="status">
            {t('offline:savedCopy', { date: formatSavedAt(keptPageAt, i18n.language) })}
          </p>
        )}
        {loading && (
          <p className={s.status} role="status">
            {t('loading')}
          </p>
        )}
        {failed && (
          <div className={s.quiet} role="status">
            <p>{t('failed')}</p>
            {rows.length === 0 && kept && (
              <p>
                {keptAt
                  ? t('offline:savedCopy', { date: formatSavedAt(keptAt, i18n.language) })
                  : t('keptCopy')}
              </p>
            )}
            <button type="button" className={s.retry} onClick={() => send({ type: 'list.retry' })}>
              {t('retry')}
            </button>
          </div>
        )}
        {!loading && shown.length > 0 && (
          <ul className={s.list} aria-label={t('listLabel')}>
            {shown.map((post, index) => (
              <PostCard key={post.blog_id} post={post} lang={i18n.language} priority={index < 2} />
            ))}
          </ul>
        )}
        {state.matches('ready') && rows.length === 0 && <p className={s.empty}>{t('empty')}</p>}
        <PagePager pagination={list} ns="blog" disabled={loading} />
      </div>
    </main>
  );
}

function PostCard({ post, lang, priority }: { post: BlogPostRow; lang: string; priority: boolean }) {
  const { t } = useTranslation('blog');
  const headingId = `post-${post.blog_id}-title`;
  return (
    <li className={s.card} aria-labelledby={headingId}>
      <BlogImage
        src={post.image_url}
        alt={post.cover_alt ?? ''}
        noImage={t('noImage')}
        priority={priority}
        className={s.cover}
      />
      <div className={s.cardHead}>
        <h2 id={headingId} className={s.cardTitle}>
          {post.slug ? <Link to={`/blog/${encodeURIComponent(post.slug)}`}>{post.title}</Link> : post.title}
        </h2>
      </div>
      <p className={s.meta}>
        <span>
          <PostDate text={post.publication_date} lang={lang} />
        </span>
        <ReadTime text={post.read_time} />
      </p>
      <p className={s.excerpt}>{post.excerpt}</p>
      <PostTags tags={post.tags} label={t('tag.label')} />
      <PostPreview
        content={post.content}
        readMore={t('readMore')}
        showLess={t('showLess')}
        id={`post-${post.blog_id}-content`}
      />
    </li>
  );
}
