import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { formatSavedAt } from '../offline/format';
import { parsePublicationDate, type BlogPostRow } from '../../contract/blog';
import { PostArticle } from '../components/blog/post-article';
import { usePageData } from '../components/page-data';
import { PageMeta } from '../components/page-meta';
import { blogPostLive } from './blog-post.live';
import s from './blog-post.module.css';

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

/** The image of link previews: the social image, else the cover (raster only: an SVG gives way to the site's). */
export const socialImageOf = (post: BlogPostRow) => {
  const image = post.social_image_url || post.image_url;
  return image && !/\.svg(\?|$)/i.test(image) ? image : undefined;
};

function articleJsonLd(post: BlogPostRow, path: string) {
  const day = parsePublicationDate(post.publication_date);
  const image = socialImageOf(post);
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: post.title,
    description: post.meta_description || post.excerpt,
    ...(image ? { image: [absolute(image)] } : {}),
    ...(day ? { datePublished: day } : {}),
    ...(post.updated_at ? { dateModified: post.updated_at } : {}),
    author: post.author_name
      ? { '@type': 'Person', name: post.author_name }
      : { '@type': 'Organization', name: 'Manna', url: '%PUBLIC_URL%/' },
    publisher: {
      '@type': 'Organization',
      name: 'Manna',
      logo: { '@type': 'ImageObject', url: '%PUBLIC_URL%/favicon.svg' },
    },
    mainEntityOfPage: { '@type': 'WebPage', '@id': post.canonical_url || `%PUBLIC_URL%${path}` },
  };
}

function BlogPostPage({ slug }: { slug: string }) {
  // the offline namespace too: reached inside the app, the page may be the first to need it
  const { t, i18n } = useTranslation(['blog', 'offline']);
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
      <>
        <PageMeta
          title={post.meta_title || t('post.metaTitle', { title: post.title })}
          description={post.meta_description || post.excerpt}
          path={path}
          canonical={post.canonical_url || undefined}
          image={socialImageOf(post)}
          type="article"
          jsonLd={[articleJsonLd(post, path)]}
        />
        <PostArticle
          post={post}
          serverHtml={
            fromServer?.[0]?.blog_id === post.blog_id && fromServer[0].updated_at === post.updated_at
          }
          before={
            failed &&
            keptAt && (
              <p className={s.saved} role="status">
                {t('offline:savedCopy', { date: formatSavedAt(keptAt, i18n.language) })}
              </p>
            )
          }
        />
      </>
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
