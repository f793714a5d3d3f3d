import type { Permission } from '../../../../contract/auth';

/**
 * The sidebar of the back office, in order (the spec's admin layout, plus our screens).
 * Each link shows only to a user holding its permission. A later screen adds its line here and
 * its <Route> in admin-app.tsx.
 */
export interface AdminLink {
  to: string;
  /** Key in the `admin` namespace; also the header title on that screen. */
  label: string;
  permission: Permission;
  icon:
    | 'openings'
    | 'blog'
    | 'applications'
    | 'messages'
    | 'users'
    | 'mail'
    | 'activity'
    | 'insights'
    | 'webhooks';
  /** Other addresses that show the same screen (header title and active link). */
  aliases?: string[];
}

export const ADMIN_LINKS: AdminLink[] = [
  {
    to: '/admin/books',
    label: 'nav.openings',
    permission: 'jobs.manage',
    icon: 'openings',
    aliases: ['/admin/currentopenings'],
  },
  { to: '/admin/blog', label: 'nav.blog', permission: 'blog.manage', icon: 'blog' },
  {
    to: '/admin/job_applications',
    label: 'nav.applications',
    permission: 'applications.read',
    icon: 'applications',
  },
  { to: '/admin/messages', label: 'nav.messages', permission: 'messages.read', icon: 'messages' },
  { to: '/admin/insights', label: 'nav.insights', permission: 'insights.read', icon: 'insights' },
  { to: '/admin/users', label: 'nav.users', permission: 'users.manage', icon: 'users' },
  { to: '/admin/mail', label: 'nav.mail', permission: 'users.manage', icon: 'mail' },
  { to: '/admin/activity', label: 'nav.activity', permission: 'audit.read', icon: 'activity' },
  { to: '/admin/webhooks', label: 'nav.webhooks', permission: 'webhooks.manage', icon: 'webhooks' },
];

const clean = (path: string) => path.replace(/\/+$/, '').toLowerCase();

/** The link whose screen is at this address (index and aliases included), if any. */
export function linkForPath(pathname: string, links: AdminLink[] = ADMIN_LINKS): AdminLink | undefined {
  const path = clean(pathname);
  return links.find((l) =>
    [l.to, ...(l.aliases ?? [])].some((p) => path === clean(p) || path.startsWith(`${clean(p)}/`)),
  );
}

export const linksFor = (permissions: readonly Permission[]) =>
  ADMIN_LINKS.filter((l) => permissions.includes(l.permission));

/** Where the admin index goes: openings for jobs.manage, else the first screen the role may use. */
export function homeFor(permissions: readonly Permission[]): string | null {
  return linksFor(permissions)[0]?.to ?? null;
}

/** A safe place to return to after sign-in: an /admin address of this site, never another origin. */
export function safeNext(next: string | null): string {
  if (!next || !next.startsWith('/admin') || next.startsWith('//') || next.startsWith('/admin/login'))
    return '/admin';
  return next;
}

/**
 * The installed back office (its own window, `display-mode: standalone`) opens where its user
 * last was: the last admin screen is kept per user on the device. Sign-in, setup, the password
 * screen and the index itself are not kept.
 */
export const lastScreenKey = (userId: number) => `manna-admin-last-screen:${userId}`;

export function isRestorableScreen(path: string): boolean {
  const bare = path.split(/[?#]/)[0].replace(/\/+$/, '');
  return (
    bare.startsWith('/admin/') &&
    !path.startsWith('//') &&
    ![
      '/admin/login',
      '/admin/setup',
      '/admin/password',
      '/admin/forgot-password',
      '/admin/reset-password',
    ].includes(bare)
  );
}
