import { useMachine } from '@xstate/react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { formatSavedAt } from '../offline/format';
import { parsePublicationDate, type BlogPostRow } from '../api/contract/blog';
import { BlogImage, PostDate } from '../components/blog/blog-parts';
import { ServerRichHtml } from '../components/blog/rich-html';
import { usePageData } from '../components/page-data';
import { PageMeta } from '../components/page-meta';
import { blogPostLive } from './blog-post.live';
import s from './blog-post.module.css';

// A post loaded in the browser (in-app navigation) is sanitised there; the sanitiser loads then.
const RichContent = lazy(() =>
  import('../components/blog/rich-content').then((m) => ({ default: m.RichContent })),
);

/**
 * A post's permalink, /blog/{slug}. The server renders it on request with the post (page data),
 * so search engines and link previews see the whole post with its title, description, image and
 * Article JSON-LD; hydration starts from the same data. Reached by in-app navigation, it loads the
 * post by slug (published posts only).
 */
export default function BlogPostRoute() {
  const { slug = '' } = useParams();
  // a new post is a new page: new machine, new state
  return <BlogPostPage key={slug} slug={slug} />;
}

const absolute = (url: string) => (/^https?:\/\//i.test(url) ? url : `%PUBLIC_URL%${url}`);

function articleJsonLd(post: BlogPostRow, path: string) {
  const day = parsePublicationDate(post.publication_date);
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: post.title,
    description: post.excerpt,
    ...(post.image_url ? { image: [absolute(post.image_url)] } : {}),
    ...(day ? { datePublished: day } : {}),
    ...(post.updated_at ? { dateModified: post.updated_at } : {}),
    author: { '@type': 'Organization', name: 'Manna', url: '%PUBLIC_URL%/' },
    publisher: {
      '@type': 'Organization',
      name: 'Manna',
      logo: { '@type': 'ImageObject', url: '%PUBLIC_URL%/favicon.svg' },
    },
    mainEntityOfPage: { '@type': 'WebPage', '@id': `%PUBLIC_URL%${path}` },
  };
}

function BlogPostPage({ slug }: { slug: string }) {
  const { t, i18n } = useTranslation('blog');
  const data = usePageData();
  // what the server rendered for this very address: the post, or that there is none
  const fromServer =
    data && data.slug === slug && data.blogPost !== undefined
      ? data.blogPost
        ? [data.blogPost]
        : []
      : undefined;
  const [state, send] = useMachine(blogPostLive, { input: { pageSize: 1, query: slug, rows: fromServer } });
  const failed = state.matches({ failed: 'settled' });
  const { keptAt } = state.context;
  const post = state.context.rows[0] ?? (failed ? state.context.kept?.[0] : undefined);
  const path = `/blog/${encodeURIComponent(slug)}`;

  let body: React.ReactNode;
  if (post) {
    body = (
      <article className={s.article} aria-labelledby="post-title">
        <PageMeta
          title={t('post.metaTitle', { title: post.title })}
          description={post.excerpt}
          path={path}
          // link previews take raster images only: an SVG gives way to the site image
          image={post.image_url && !/\.svg(\?|$)/i.test(post.image_url) ? post.image_url : undefined}
          type="article"
          jsonLd={[articleJsonLd(post, path)]}
        />
        {failed && keptAt && (
          <p className={s.saved} role="status">
            {i18n.t('offline:savedCopy', { date: formatSavedAt(keptAt, i18n.language) })}
          </p>
        )}
        <header className={s.header}>
          <h1 id="post-title" className={s.title}>
            {post.title}
          </h1>
          <p className={s.meta}>
            <span>
              <PostDate text={post.publication_date} lang={i18n.language} />
            </span>
            <span>{post.read_time}</span>
          </p>
          <p className={s.excerpt}>{post.excerpt}</p>
        </header>
        <BlogImage src={post.image_url} alt="" noImage={t('noImage')} priority className={s.image} />
        {fromServer?.[0]?.blog_id === post.blog_id && fromServer[0].updated_at === post.updated_at ? (
          <ServerRichHtml html={post.content} className={s.content} />
        ) : (
          <Suspense fallback={<div className={s.content} />}>
            <RichContent html={post.content} className={s.content} />
          </Suspense>
        )}
      </article>
    );
  } else if (!state.matches('ready') && !failed) {
    body = (
      <p className={s.status} role="status">
        {t('loading')}
      </p>
    );
  } else if (failed) {
    body = (
      <div className={s.status} role="status">
        <p>{t('post.failed')}</p>
        <button type="button" className={s.retry} onClick={() => send({ type: 'list.retry' })}>
          {t('retry')}
        </button>
      </div>
    );
  } else {
    body = (
      <div className={s.missing}>
        <PageMeta title={t('post.notFound')} description={t('post.notFoundText')} noindex />
        <h1>{t('post.notFound')}</h1>
        <p>{t('post.notFoundText')}</p>
      </div>
    );
  }

  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <div className={`container ${s.wrap}`}>
        <nav className={s.crumbs} aria-label={t('title')}>
          <Link to="/blog">← {t('post.back')}</Link>
        </nav>
        {body}
      </div>
    </main>
  );
}
