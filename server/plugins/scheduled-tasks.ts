import { runBackupTask } from '../services/backups';
import { runBlogSchedule } from '../services/blog-schedule';
import { runRetentionTask } from '../services/retention';
import { global } from './global';

/** How often a process asks whether the daily tasks are due (the lease decides who runs them). */
export const RETENTION_CHECK_MS = 60 * 60 * 1000;
/** The first check after start, so a restart loop does not purge on every start. */
export const RETENTION_FIRST_CHECK_MS = 60 * 1000;

/** How often a process looks for Scheduled posts another process saved (its own it times exactly). */
export const BLOG_SCHEDULE_CHECK_MS = 15_000;

/**
 * The hourly check of the daily tasks inside the server: the retention purge
 * (services/retention.ts), then the backup when BACKUP_DIR is set (services/backups.ts); each is run
 * by one process of the site under a database lease. And the publication of Scheduled blog posts
 * (services/blog-schedule.ts), on time. Stopped, and waited for, when the app closes.
 */
export const scheduledTasks = global(async (app) => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const check = () => {
    running = runRetentionTask(app.services(), {
      retentionDays: app.config.APPLICATION_RETENTION_DAYS,
      messageRetentionDays: app.config.MESSAGE_RETENTION_DAYS,
      now: new Date(),
      log: app.log,
    })
      .then(() => runBackupTask(app.db, app.config, { now: new Date(), log: app.log }))
      .catch((err: unknown) => app.log.error({ err }, 'Retention check failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(check, RETENTION_CHECK_MS).unref();
      });
  };
  // Scheduled blog posts: looked for every BLOG_SCHEDULE_CHECK_MS, or sooner when the next is due
  let blogTimer: NodeJS.Timeout | undefined;
  let blogRun: Promise<unknown> | undefined;
  const checkBlog = () => {
    blogRun = runBlogSchedule(app.services())
      .then(
        (next) => next,
        (err: unknown) => {
          app.log.error({ err }, 'Publishing scheduled posts failed');
          return undefined;
        },
      )
      .then((next) => {
        blogRun = undefined;
        if (stopped) return;
        const wait = next ? Math.max(0, next.getTime() - Date.now()) : BLOG_SCHEDULE_CHECK_MS;
        blogTimer = setTimeout(checkBlog, Math.min(wait, BLOG_SCHEDULE_CHECK_MS)).unref();
      });
  };
  app.addHook('onReady', async () => {
    timer = setTimeout(check, RETENTION_FIRST_CHECK_MS).unref();
    blogTimer = setTimeout(checkBlog, 0).unref();
  });
  app.addHook('preClose', async () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(blogTimer);
    await Promise.all([running, blogRun]);
  });
});
