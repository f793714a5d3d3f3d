import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { BlogPostRow } from '../../contract/blog';
import { PostArticle } from '../components/blog/post-article';
import { LIVE_PREVIEW, PREVIEW_MESSAGE, PREVIEW_READY } from '../components/blog/preview-messages';
import { usePageData } from '../components/page-data';
import { PageMeta } from '../components/page-meta';
import s from './blog-post.module.css';

/**
 * A post's preview in the public layout, never indexed (docs/decisions/025-blog-publishing.md):
 * - `/blog/preview/<token>`: a share link made in the back office (7 days). The server renders the
 *   post whatever its status (page data); an expired or changed link is the site's 404.
 * - `/blog/preview/live`: what the blog editor holds, saved or not, shown in a frame of the editor
 *   at a desktop or a phone's width. The editor sends the post with `postMessage`; only a message
 *   from the page that framed this one, on this site, is shown, and its text is sanitised here.
 */
export default function BlogPreviewRoute() {
  const { token = '' } = useParams();
  return <BlogPreviewPage key={token} token={token} />;
}

function BlogPreviewPage({ token }: { token: string }) {
  const { t } = useTranslation('blog');
  const data = usePageData();
  const live = token === LIVE_PREVIEW;
  const fromServer = !live && data?.preview === token ? (data.blogPost ?? null) : null;
  const [post, setPost] = useState<BlogPostRow | null>(fromServer);

  useEffect(() => {
    if (!live || window.parent === window) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || event.source !== window.parent) return;
      const message = event.data as { type?: unknown; post?: unknown } | null;
      if (message?.type !== PREVIEW_MESSAGE) return;
      const parsed = BlogPostRow.safeParse(message.post);
      if (parsed.success) setPost(parsed.data);
    };
    window.addEventListener('message', onMessage);
    window.parent.postMessage({ type: PREVIEW_READY }, window.location.origin);
    return () => window.removeEventListener('message', onMessage);
  }, [live]);

  return (
    <main id="main" tabIndex={-1} className={s.page}>
      <PageMeta
        title={t('preview.metaTitle', { title: post?.title ?? '' })}
        description={post?.excerpt ?? ''}
        noindex
      />
      <div className={`container ${s.wrap}`}>
        <p className={s.previewBanner} role="note">
          {t('preview.banner')}
        </p>
        {post ? (
          <PostArticle post={post} serverHtml={post === fromServer} />
        ) : (
          <p className={s.status} role="status">
            {t('preview.waiting')}
          </p>
        )}
      </div>
    </main>
  );
}
