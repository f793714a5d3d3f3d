import {
  lazy,
  Suspense,
  useEffect,
  useId,
  useRef,
  useSyncExternalStore,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Link, useHref, useLocation } from 'react-router-dom';
import { useMachine } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { mobileMenuMachine, type MobileMenuGroup } from '../machines/mobile-menu.machine';
import { hoverMenuMachine } from '../machines/hover-menu.machine';
import { LANGUAGES } from '../i18n/languages';
import { useLanguage } from '../i18n/use-language';
import { RegisterLink } from './register-link';
import { ConnectionStatus } from './connection-status';
import { ChevronDown, CloseIcon, GlobeIcon, Logo, MenuIcon, SearchIcon } from './icons';
import s from './header.module.css';

/** How long the header waits before it opens and closes a menu, and hides on scroll. */
export const NAV_DELAYS = { openDelay: 200, skipDelay: 300, closeDelay: 150 };
export const TOOLTIP_DELAYS = { openDelay: 700, skipDelay: 300, closeDelay: 0 };

interface NavLinkItem {
  to: string;
  label: string;
  description?: string;
}

function useNavGroups() {
  const { t } = useTranslation();
  const desktop: { id: string; label: string; links: NavLinkItem[] }[] = [
    {
      id: 'products',
      label: t('nav.products'),
      links: [
        { to: '/manuscript-automation', label: t('nav.manuscript'), description: t('nav.manuscriptDesc') },
      ],
    },
    {
      id: 'resources',
      label: t('nav.resources'),
      links: [{ to: '/blog', label: t('nav.blog'), description: t('nav.blogDesc') }],
    },
    {
      id: 'company',
      label: t('nav.company'),
      links: [
        { to: '/about', label: t('nav.about'), description: t('nav.aboutDesc') },
        { to: '/careers', label: t('nav.careers'), description: t('nav.careersDesc') },
        { to: '/contact', label: t('nav.contact'), description: t('nav.contactDesc') },
      ],
    },
  ];
  const mobile: { id: MobileMenuGroup; label: string; links: NavLinkItem[] }[] = [
    {
      id: 'products',
      label: t('nav.products'),
      links: [{ to: '/manuscript-automation', label: t('nav.manuscript') }],
    },
    {
      id: 'resources',
      label: t('nav.resources'),
      links: [
        { to: '/help-center', label: t('nav.helpCenter') },
        { to: '/training', label: t('nav.training') },
        { to: '/blog', label: t('nav.blog') },
      ],
    },
    {
      id: 'support',
      label: t('nav.support'),
      links: [
        { to: '/documentation', label: t('nav.documentation') },
        { to: '/api-reference', label: t('nav.apiReference') },
      ],
    },
    {
      id: 'company',
      label: t('nav.company'),
      links: [
        { to: '/about', label: t('nav.about') },
        { to: '/careers', label: t('nav.careers') },
        { to: '/contact', label: t('nav.contact') },
      ],
    },
  ];
  return { desktop, mobile };
}

function DesktopNav() {
  const { t } = useTranslation();
  const { desktop } = useNavGroups();
  const [state, send] = useMachine(hoverMenuMachine, { input: NAV_DELAYS });
  const active = state.context.active;
  const navRef = useRef<HTMLElement>(null);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && active) {
      send({ type: 'menu.dismiss' });
      navRef.current?.querySelector<HTMLButtonElement>(`[data-menu="${active}"]`)?.focus();
    }
  };

  return (
    <nav
      ref={navRef}
      className={s.desktopNav}
      aria-label={t('nav.label')}
      onKeyDown={onKeyDown}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) send({ type: 'menu.dismiss' });
      }}
    >
      <ul className={s.menuBar} onMouseLeave={() => send({ type: 'item.leave' })}>
        {desktop.slice(0, 1).map((g) => (
          <NavMenu key={g.id} group={g} active={active === g.id} send={send} />
        ))}
        <li onMouseEnter={() => send({ type: 'item.leave' })}>
          <Link className={s.menuTrigger} to="/pricing">
            {t('nav.pricing')}
          </Link>
        </li>
        {desktop.slice(1).map((g) => (
          <NavMenu key={g.id} group={g} active={active === g.id} send={send} />
        ))}
      </ul>
    </nav>
  );
}

function NavMenu({
  group,
  active,
  send,
}: {
  group: { id: string; label: string; links: NavLinkItem[] };
  active: boolean;
  send: (e: { type: 'item.enter' | 'item.click'; id: string } | { type: 'menu.dismiss' }) => void;
}) {
  const panelId = `nav-${group.id}`;
  return (
    <li className={s.menuItem} onMouseEnter={() => send({ type: 'item.enter', id: group.id })}>
      <button
        type="button"
        className={s.menuTrigger}
        data-menu={group.id}
        aria-expanded={active}
        aria-controls={panelId}
        onClick={() => send({ type: 'item.click', id: group.id })}
      >
        {group.label}
        <ChevronDown size={16} className={s.chevron} />
      </button>
      <div id={panelId} className={s.panel} hidden={!active}>
        <ul>
          {group.links.map((l) => (
            <li key={l.to}>
              <Link to={l.to} className={s.panelLink} onClick={() => send({ type: 'menu.dismiss' })}>
                <span className={s.panelTitle}>{l.label}</span>
                {l.description && <span className={s.panelDesc}>{l.description}</span>}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </li>
  );
}

/** Header buttons with a tooltip that follows the spec's 700 ms delay and 300 ms skip delay. */
function TooltipGroup({ children }: { children: (tip: TooltipApi) => ReactNode }) {
  const [state, send] = useMachine(hoverMenuMachine, { input: TOOLTIP_DELAYS });
  const api: TooltipApi = {
    active: state.context.active,
    enter: (id) => send({ type: 'item.enter', id }),
    leave: () => send({ type: 'item.leave' }),
    focus: (id) => send({ type: 'item.click', id }),
    dismiss: () => send({ type: 'menu.dismiss' }),
  };
  return <>{children(api)}</>;
}
interface TooltipApi {
  active: string | null;
  enter: (id: string) => void;
  leave: () => void;
  focus: (id: string) => void;
  dismiss: () => void;
}

function WithTooltip({
  id,
  tip,
  text,
  children,
}: {
  id: string;
  tip: TooltipApi;
  text: string;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const tipId = useId();
  return (
    <span
      className={s.tooltipAnchor}
      onMouseEnter={() => tip.enter(id)}
      onMouseLeave={tip.leave}
      onFocus={() => tip.focus(id)}
      onBlur={tip.dismiss}
      onKeyDown={(e) => e.key === 'Escape' && tip.dismiss()}
    >
      {children(tip.active === id ? tipId : undefined)}
      {tip.active === id && (
        <span role="tooltip" id={tipId} className={s.tooltip}>
          {text}
        </span>
      )}
    </span>
  );
}

// The search's code and texts load the first time it opens (docs/decisions/040-site-search-screens.md).
const SearchDialog = lazy(() => import('./site-search/search-dialog'));

/** Keys typed into a field are the field's: `/` opens the search only from the page itself. */
const typingIn = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/**
 * Whether the search is open: one flag for the page, set by the header's button and by `/` and
 * Ctrl+K (⌘K) from anywhere on the page. The keys are heard from the moment this module loads,
 * so a key pressed while the page is still starting opens the search once it has started.
 */
let searchOpen = false;
const searchListeners = new Set<() => void>();
function setSearchOpen(open: boolean) {
  searchOpen = open;
  searchListeners.forEach((listener) => listener());
}
const onSearchChange = (listener: () => void) => {
  searchListeners.add(listener);
  return () => void searchListeners.delete(listener);
};
if (typeof document !== 'undefined') {
  document.addEventListener('keydown', (e) => {
    const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !typingIn(e.target);
    const commandK = (e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k';
    if (!slash && !commandK) return;
    e.preventDefault();
    setSearchOpen(true);
  });
}

/** The header's search: a link to /search (the page works without JavaScript) that opens the search dialog instead. */
function SearchOpener() {
  const { t } = useTranslation();
  const href = useHref('/search');
  const open = useSyncExternalStore(
    onSearchChange,
    () => searchOpen,
    () => false,
  );
  return (
    <>
      <a
        href={href}
        className={s.searchButton}
        aria-keyshortcuts="/ Control+K"
        onClick={(e) => {
          e.preventDefault();
          setSearchOpen(true);
        }}
      >
        <SearchIcon size={20} />
        <span className="visually-hidden">{t('actions.search')}</span>
      </a>
      {open && (
        <Suspense fallback={null}>
          <SearchDialog onClose={() => setSearchOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

function LanguageSelect({ id }: { id: string }) {
  const { t } = useTranslation();
  const [lang, setLang] = useLanguage();
  return (
    <div className={s.language}>
      <GlobeIcon size={18} />
      <label htmlFor={id} className="visually-hidden">
        {t('language.label')}
      </label>
      <select id={id} value={lang} onChange={(e) => setLang(e.target.value)} className={s.languageSelect}>
        {LANGUAGES.map((l) => (
          <option key={l.code} value={l.code} lang={l.code}>
            {l.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function MobileMenu() {
  const { t } = useTranslation();
  const { mobile } = useNavGroups();
  const [state, send] = useMachine(mobileMenuMachine);
  const open = state.matches('open');
  const location = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);

  // Following a link closes the menu.
  useEffect(() => {
    send({ type: 'menu.close' });
  }, [location.pathname, send]);

  // Focus moves into the panel on open and back to the toggle on close; the page does not scroll behind it.
  useEffect(() => {
    if (open) {
      closeRef.current?.focus();
      document.body.style.overflow = 'hidden';
    } else {
      document.body.style.overflow = '';
      if (wasOpen.current) toggleRef.current?.focus();
    }
    wasOpen.current = open;
  }, [open]);

  const onPanelKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      send({ type: 'menu.close' });
      return;
    }
    if (e.key !== 'Tab' || !panelRef.current) return;
    const focusable = panelRef.current.querySelectorAll<HTMLElement>('a[href], button, select');
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first?.focus();
    }
  };

  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        className={s.menuToggle}
        aria-expanded={open}
        aria-controls="mobile-menu"
        onClick={() => send({ type: 'menu.open' })}
      >
        <MenuIcon size={24} />
        <span className="visually-hidden">{t('actions.openMenu')}</span>
      </button>
      <div
        className={s.overlay}
        data-open={open}
        onClick={() => send({ type: 'menu.close' })}
        aria-hidden="true"
        data-testid="mobile-menu-overlay"
      />
      <div
        ref={panelRef}
        id="mobile-menu"
        className={s.mobilePanel}
        data-open={open}
        role="dialog"
        aria-modal="true"
        aria-label={t('nav.mobileLabel')}
        inert={!open}
        onKeyDown={onPanelKeyDown}
      >
        <div className={s.mobilePanelHead}>
          <Link to="/" aria-label={t('nav.home')} className={s.logoLink}>
            <Logo />
          </Link>
          <button
            ref={closeRef}
            type="button"
            className={s.closeButton}
            onClick={() => send({ type: 'menu.close' })}
          >
            <CloseIcon size={24} />
            <span className="visually-hidden">{t('actions.closeMenu')}</span>
          </button>
        </div>
        <nav aria-label={t('nav.mobileLabel')}>
          <ul className={s.mobileGroups}>
            {mobile.map((g) => {
              const expanded = state.context.expanded === g.id;
              return (
                <li key={g.id}>
                  <button
                    type="button"
                    className={s.groupToggle}
                    aria-expanded={expanded}
                    aria-controls={`mobile-group-${g.id}`}
                    onClick={() => send({ type: 'group.toggle', group: g.id })}
                  >
                    {g.label}
                    <ChevronDown size={18} className={s.chevron} />
                  </button>
                  <ul id={`mobile-group-${g.id}`} className={s.groupLinks} hidden={!expanded}>
                    {g.links.map((l) => (
                      <li key={l.to}>
                        <Link to={l.to} onClick={() => send({ type: 'menu.close' })}>
                          {l.label}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </li>
              );
            })}
            <li>
              <Link className={s.groupToggle} to="/pricing" onClick={() => send({ type: 'menu.close' })}>
                {t('nav.pricing')}
              </Link>
            </li>
          </ul>
        </nav>
        <div className={s.mobileLanguage}>
          <LanguageSelect id="language-mobile" />
        </div>
      </div>
    </>
  );
}

export function Header() {
  const { t } = useTranslation();
  return (
    <header className={s.header}>
      <a href="#main" className={s.skipLink}>
        {t('skipToContent')}
      </a>
      <div className={s.inner}>
        <div className={s.mobileOnly}>
          <MobileMenu />
        </div>
        <Link to="/" aria-label={t('nav.home')} className={s.logoLink}>
          <span className={s.logoFull}>
            <Logo />
          </span>
          <span className={s.logoMark}>
            <Logo withWord={false} />
          </span>
        </Link>
        <DesktopNav />
        <div className={s.actions}>
          <ConnectionStatus />
          <SearchOpener />
          <div className={s.desktopOnly}>
            <LanguageSelect id="language-desktop" />
          </div>
          <TooltipGroup>
            {(tip) => (
              <>
                <WithTooltip id="demo" tip={tip} text={t('actions.demoHint')}>
                  {(describedBy) => (
                    <RegisterLink className={s.demoButton} aria-describedby={describedBy}>
                      {t('actions.demo')}
                    </RegisterLink>
                  )}
                </WithTooltip>
                <WithTooltip id="register" tip={tip} text={t('actions.registerHint')}>
                  {(describedBy) => (
                    <RegisterLink className={s.registerButton} aria-describedby={describedBy}>
                      {t('actions.register')}
                    </RegisterLink>
                  )}
                </WithTooltip>
              </>
            )}
          </TooltipGroup>
        </div>
      </div>
    </header>
  );
}
