import { finishLease, PROCESS_HOLDER, releaseLease, takeLease } from '../db/scheduled-task.repo';
import { nextScheduledAt, publishDuePosts } from './blog';
import type { ServiceContext } from './context';

/**
 * Scheduled blog posts go public on time (docs/decisions/025-blog-publishing.md): each process of the site looks for due posts
 * (plugins/scheduled-tasks.ts calls this when the next one is due, and every 15 seconds for posts
 * another process scheduled), and the one that takes the lease `blog-schedule` publishes them
 * (services/blog.ts `publishDuePosts`, each change conditional on the post's version, so a post is
 * published once even if two processes ran it). Answers when the next Scheduled post is due.
 */
export const BLOG_SCHEDULE_TASK = 'blog-schedule';
/** A run that has not finished after this long is presumed dead; another process may take over. */
export const BLOG_SCHEDULE_LEASE_MS = 60_000;

export async function runBlogSchedule(
  ctx: ServiceContext,
  holder = PROCESS_HOLDER,
): Promise<Date | undefined> {
  const now = ctx.now();
  const next = await nextScheduledAt(ctx);
  if (!next || next > now) return next;
  if (
    await takeLease(ctx.db, BLOG_SCHEDULE_TASK, { holder, now, leaseMs: BLOG_SCHEDULE_LEASE_MS, everyMs: 0 })
  ) {
    try {
      const published = await publishDuePosts(ctx, now);
      await finishLease(ctx.db, BLOG_SCHEDULE_TASK, holder, ctx.now(), `published ${published.length}`);
    } catch (err) {
      await releaseLease(ctx.db, BLOG_SCHEDULE_TASK, holder, String(err));
      throw err;
    }
  }
  return nextScheduledAt(ctx);
}
