import { runBackupTask } from '../services/backups';
import { repairStoredCovers } from '../services/blog-images';
import { runBlogSchedule } from '../services/blog-schedule';
import { ROLLUP_EVERY_MS, runInsightsRollup } from '../services/insights';
import { runRetentionTask } from '../services/retention';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** A blog post changed in this process: the schedule asks the database again at the next tick. */
    blogScheduleChanged(): void;
  }
}

/** How often a process asks whether the daily tasks are due (the lease decides who runs them). */
export const RETENTION_CHECK_MS = 60 * 60 * 1000;
/** The first check after start, so a restart loop does not purge on every start. */
export const RETENTION_FIRST_CHECK_MS = 60 * 1000;

/** How often a process asks the database when the next Scheduled post is due. */
export const BLOG_SCHEDULE_CHECK_MS = 15_000;
/** How often it compares that time with the clock (nothing is read for it). */
export const BLOG_SCHEDULE_TICK_MS = 1_000;

/**
 * The hourly check of the daily tasks inside the server: the retention purge
 * (services/retention.ts), then the backup when BACKUP_DIR is set (services/backups.ts); each is run
 * by one process of the site under a database lease. And the publication of Scheduled blog posts
 * (services/blog-schedule.ts), on time. The visit figures' rollup (services/insights.ts), every
 * five minutes. Once, soon after the first start on a database, the repair of covers stored before
 * they were cleaned and given widths at upload (services/blog-images.ts). Stopped, and waited
 * for, when the app closes.
 */
export const scheduledTasks = fp(
  async (app) => {
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
    // Scheduled blog posts: a steady one-second tick publishes a post the second it is due; the
    // database is asked when the next one is due every BLOG_SCHEDULE_CHECK_MS (another process may
    // have scheduled one) and after each run
    let blogTick: NodeJS.Timeout | undefined;
    let blogRun: Promise<unknown> | undefined;
    let nextDue: number | undefined;
    let nextLook = 0;
    const tickBlog = () => {
      const now = Date.now();
      if (blogRun || stopped || (now < nextLook && (nextDue === undefined || nextDue > now))) return;
      blogRun = runBlogSchedule(app.services())
        .then(
          (next) => {
            nextDue = next?.getTime();
            nextLook = Date.now() + BLOG_SCHEDULE_CHECK_MS;
          },
          (err: unknown) => {
            app.log.error({ err }, 'Publishing scheduled posts failed');
            nextLook = Date.now() + BLOG_SCHEDULE_CHECK_MS;
          },
        )
        .finally(() => {
          blogRun = undefined;
        });
    };
    app.decorate('blogScheduleChanged', () => {
      nextLook = 0;
    });
    // Visit figures: the daily figures are made from the page views every ROLLUP_EVERY_MS (the
    // lease decides which process), and the secrets of ended days are deleted
    let rollupTick: NodeJS.Timeout | undefined;
    let rollupRun: Promise<unknown> | undefined;
    const rollUp = () => {
      if (rollupRun || stopped) return;
      rollupRun = runInsightsRollup(app.services()).finally(() => {
        rollupRun = undefined;
      });
    };
    let repairRun: Promise<unknown> | undefined;
    app.addHook('onReady', async () => {
      repairRun = repairStoredCovers(app.services()).catch((err: unknown) =>
        app.log.error(
          { err },
          'Repairing stored covers could not start; it is tried again at the next start',
        ),
      );
      rollupTick = setInterval(rollUp, ROLLUP_EVERY_MS / 5).unref();
      timer = setTimeout(check, RETENTION_FIRST_CHECK_MS).unref();
      blogTick = setInterval(tickBlog, BLOG_SCHEDULE_TICK_MS).unref();
    });
    app.addHook('preClose', async () => {
      stopped = true;
      clearTimeout(timer);
      clearInterval(blogTick);
      clearInterval(rollupTick);
      await Promise.all([running, blogRun, rollupRun, repairRun]);
    });
  },
  { name: 'scheduled-tasks', dependencies: ['services'], decorators: { fastify: ['db', 'config'] } },
);
