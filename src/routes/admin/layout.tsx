import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { useAdminSession } from './shared/admin-context';
import { CollapseIcon, KeyIcon, LogoutIcon, NavIcon } from './shared/admin-icons';
import { linkForPath, linksFor } from './shared/admin-links';
import s from './admin-app.module.css';
import { ConnectionStatus } from '../../components/connection-status';

/**
 * The admin layout: a collapsible sidebar (16rem / 4rem) titled 'Admin Panel'
 * with the links the user's role may use, a header with the current link's label or 'Admin', and
 * the nested screen in the main area. On a phone the sidebar starts collapsed to its icons, and
 * folds to them when the window becomes that narrow.
 */
const PHONE = '(max-width: 40rem)';

export function AdminLayout() {
  const { t } = useTranslation('admin');
  const { user, signOut } = useAdminSession();
  const { pathname, hash } = useLocation();
  // Another screen opens at its top, not at the last one's scroll position (an address with a
  // #part goes there instead)
  useEffect(() => {
    if (!hash) window.scrollTo({ top: 0, left: 0 });
    // only a change of screen: the same screen with other search parameters keeps its place
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
  // The admin is rendered in the browser only (no prerender), so the viewport can decide.
  const [collapsed, setCollapsed] = useState(() => window.matchMedia(PHONE).matches);
  // a window made narrow (a tablet turned, a desktop window dragged small): the sidebar would lie
  // over the screen, so it folds to its icons
  useEffect(() => {
    const phone = window.matchMedia(PHONE);
    const fold = (e: MediaQueryListEvent) => {
      if (e.matches) setCollapsed(true);
    };
    phone.addEventListener('change', fold);
    return () => phone.removeEventListener('change', fold);
  }, []);
  const links = linksFor(user.permissions);
  // On a phone the open sidebar lies over the screen: going somewhere closes it.
  const closeOnPhone = () => {
    if (window.matchMedia(PHONE).matches) setCollapsed(true);
  };
  const current = linkForPath(
    pathname === '/admin' || pathname === '/admin/' ? '/admin/books' : pathname,
    links,
  );
  const title = current
    ? t(current.label)
    : pathname.startsWith('/admin/password')
      ? t('account.title')
      : t('title');

  return (
    <div className={s.layout} data-collapsed={collapsed}>
      <a className={s.skip} href="#main">
        {t('skip')}
      </a>
      <aside className={s.sidebar} aria-label={t('panel')}>
        <div className={s.sidebarTop}>
          <p className={s.panelTitle}>{t('panel')}</p>
          <button
            type="button"
            className={s.collapse}
            aria-expanded={!collapsed}
            aria-controls="admin-nav"
            aria-label={t(collapsed ? 'sidebar.expand' : 'sidebar.collapse')}
            title={t(collapsed ? 'sidebar.expand' : 'sidebar.collapse')}
            onClick={() => setCollapsed((c) => !c)}
          >
            <CollapseIcon collapsed={collapsed} />
          </button>
        </div>
        <nav id="admin-nav" aria-label={t('panel')}>
          <ul>
            {links.map((l) => (
              <li key={l.to}>
                <NavLink
                  to={l.to}
                  title={collapsed ? t(l.label) : undefined}
                  aria-current={current?.to === l.to ? 'page' : undefined}
                  onClick={closeOnPhone}
                >
                  <NavIcon name={l.icon} />
                  <span className={s.linkLabel}>{t(l.label)}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className={s.account}>
          <p className={s.who} title={user.email}>
            <span className={s.linkLabel}>{user.email}</span>
            <span className={s.role}>{user.role}</span>
          </p>
          <NavLink
            to="/admin/password"
            title={collapsed ? t('account.link') : undefined}
            onClick={closeOnPhone}
          >
            <KeyIcon />
            <span className={s.linkLabel}>{t('account.link')}</span>
          </NavLink>
          <button
            type="button"
            className={s.signOut}
            onClick={signOut}
            title={collapsed ? t('auth.signOut') : undefined}
          >
            <LogoutIcon />
            <span className={s.linkLabel}>{t('auth.signOut')}</span>
          </button>
        </div>
      </aside>
      <div className={s.main}>
        <header className={s.header}>
          <h1>{title}</h1>
          <ConnectionStatus />
        </header>
        <main id="main" className={s.content} tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
