import { useMachine } from '@xstate/react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation, useSearchParams } from 'react-router-dom';
import { onSessionEnded } from '../../api/client';
import type { Permission } from '../../../contract/auth';
import { preloadToasts } from '../../components/toasts';
import { authLive } from './admin-app.live';
import { AdminSessionContext, useAdminSession, type AdminSession } from './shared/admin-context';
import { homeFor, isRestorableScreen, lastScreenKey, safeNext } from './shared/admin-links';
import { AdminLayout } from './layout';
import { LoginScreen, SecondStepForm, SecondStepScreen, SessionExpiredDialog } from './people/login';
import { SetupScreen } from './people/setup';
import { ForgotPasswordScreen, ResetPasswordScreen } from './people/password-links';
import { MailScreen } from './operations/mail';
import { WebhooksScreen } from './operations/webhooks';
import { OpeningsScreen } from './hiring/openings';
import { BlogManagementScreen } from './blog/blog-management';
import { UsersScreen } from './people/users';
import { ActivityScreen } from './operations/activity';
import { InsightsScreen } from './insights/insights';
import { ApplicationsScreen } from './hiring/applications';
import { MessagesScreen } from './inbox/messages';
import { PasswordScreen } from './people/password';
import { NoAccess } from './status-screens';
import { Modal } from '../../components/modal';
import s from './admin-app.module.css';
import { FreshProof } from './people/proof-dialog';

// The sender of the send queue for the signed-in person's own changes (src/pwa).
const EditQueue = lazy(() => import('../../pwa/send-queue-runner'));

// The public contact page, shown inside the admin at /admin/contact.
const ContactPage = lazy(() => import('../contact'));

/** Shows the screen only to a user holding the permission; others get a clear 'no access' note. */
function Guard({ permission, children }: { permission: Permission; children: React.ReactNode }) {
  const session = useAdminSession();
  return session.can(permission) ? <>{children}</> : <NoAccess />;
}

/**
 * The back office: one lazy chunk (plus the editor chunk) with its own nested routes (spec
 * section 2, "Admin layout"). Signed-out visits to any admin address go to /admin/login and come
 * back after signing in; each screen and sidebar link needs its permission.
 */
function readLastScreen(userId: number): string | null {
  try {
    const path = localStorage.getItem(lastScreenKey(userId));
    return path && isRestorableScreen(path) ? path : null;
  } catch {
    return null;
  }
}

export default function AdminApp() {
  const { t, i18n } = useTranslation('admin');
  const location = useLocation();
  const [params] = useSearchParams();
  const [machine] = useState(() => authLive(i18n));
  const [state, send] = useMachine(machine);
  const user = state.context.user;

  const session = useMemo<AdminSession | null>(
    () =>
      user
        ? {
            user,
            can: (p) => user.permissions.includes(p),
            userUpdated: (u) => send({ type: 'user.updated', user: u }),
            signOut: () => send({ type: 'logout' }),
          }
        : null,
    [user, send],
  );

  const onLogin = location.pathname.replace(/\/+$/, '') === '/admin/login';
  const onSetup = location.pathname.replace(/\/+$/, '') === '/admin/setup';
  const here = `${location.pathname}${location.search}`;
  const onIndex = location.pathname.replace(/\/+$/, '') === '/admin';
  const [standalone] = useState(
    () => typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches,
  );
  const userId = user?.user_id;
  // toasts loaded while online, so an offline save can still say so
  useEffect(() => preloadToasts(), []);
  // Any API answer 401, from any screen or dialog: the session ended (the machine acts on it only
  // while signed in; a wrong password in the sign-in form is a 401 it ignores).
  useEffect(() => onSessionEnded(() => send({ type: 'session.expired' })), [send]);
  useEffect(() => {
    if (userId === undefined || !isRestorableScreen(here)) return;
    try {
      localStorage.setItem(lastScreenKey(userId), here);
    } catch {
      // storage off: the installed app opens at the first screen
    }
  }, [userId, here]);

  // password links work the same signed in or not: the person at the keyboard owns the mailbox
  const page = location.pathname.replace(/\/+$/, '');
  if (page === '/admin/forgot-password') return <ForgotPasswordScreen />;
  if (page === '/admin/reset-password') return <ResetPasswordScreen />;

  if (state.matches('checking') || state.matches('signingOut')) {
    return (
      <main id="main" className={s.center}>
        <p role="status">{t(state.matches('signingOut') ? 'auth.signingOut' : 'auth.checking')}</p>
      </main>
    );
  }
  if (state.matches('unreachable')) {
    return (
      <main id="main" className={s.center}>
        <div className={s.note}>
          <h1>{t('title')}</h1>
          <p role="alert">{t('auth.unreachable')}</p>
          <button type="button" className={s.primary} onClick={() => send({ type: 'check.retry' })}>
            {t('actions.retry')}
          </button>
        </div>
      </main>
    );
  }
  if (!session) {
    if (onSetup) return <SetupScreen onSignedIn={(u) => send({ type: 'session.started', user: u })} />;
    // after a sign-out here, the address the last user left is theirs: the next person starts at home
    if (!onLogin)
      return (
        <Navigate
          to={state.context.signedOutHere ? '/admin/login' : `/admin/login?next=${encodeURIComponent(here)}`}
          replace
        />
      );
    const step = state.context.secondStep;
    if (step)
      return (
        <SecondStepScreen
          step={step}
          busy={
            state.matches('verifyingCode') ||
            state.matches('verifyingPasskey') ||
            state.matches('cancellingSecondStep')
          }
          error={state.context.error}
          onCode={(code) => send({ type: 'code.submit', code })}
          onPasskey={() => send({ type: 'passkey.use' })}
          onCancel={() => send({ type: 'secondStep.cancel' })}
        />
      );
    return (
      <LoginScreen
        busy={state.matches('signingIn') || state.matches('signingInWithPasskey')}
        error={state.context.error}
        onSubmit={(email, password) => send({ type: 'login.submit', email, password })}
        onPasskey={() => send({ type: 'passkey.signIn' })}
      />
    );
  }
  if (onLogin) return <Navigate to={safeNext(params.get('next'))} replace />;
  if (onSetup) return <Navigate to="/admin" replace />;
  // the installed app (its own window) starts at /admin/: back to the screen its user last had open
  const last = onIndex && standalone ? readLastScreen(session.user.user_id) : null;
  if (last) return <Navigate to={last} replace />;
  if (session.user.must_change_password && location.pathname !== '/admin/password') {
    return <Navigate to="/admin/password" replace />;
  }
  // their role requires a second factor and they have none: the account screen sets one up first
  if (session.user.factor_setup_required && location.pathname !== '/admin/password') {
    return <Navigate to="/admin/password#security" replace />;
  }

  const home = homeFor(session.user.permissions);
  return (
    <AdminSessionContext.Provider value={session}>
      {/* this person's changes made offline are sent from here, under their session */}
      <Suspense fallback={null}>
        <EditQueue key={session.user.user_id} owner={session.user.user_id} />
      </Suspense>
      <Routes>
        <Route element={<AdminLayout />}>
          <Route
            index
            element={
              session.can('jobs.manage') ? (
                <OpeningsScreen />
              ) : home ? (
                <Navigate to={home} replace />
              ) : (
                <NoAccess />
              )
            }
          />
          <Route
            path="currentopenings"
            element={
              <Guard permission="jobs.manage">
                <OpeningsScreen />
              </Guard>
            }
          />
          <Route
            path="books"
            element={
              <Guard permission="jobs.manage">
                <OpeningsScreen />
              </Guard>
            }
          />
          <Route
            path="blog"
            element={
              <Guard permission="blog.manage">
                <BlogManagementScreen />
              </Guard>
            }
          />
          <Route
            path="job_applications"
            element={
              <Guard permission="applications.read">
                <ApplicationsScreen />
              </Guard>
            }
          />
          <Route
            path="messages"
            element={
              <Guard permission="messages.read">
                <MessagesScreen />
              </Guard>
            }
          />
          <Route
            path="insights"
            element={
              <Guard permission="insights.read">
                <InsightsScreen />
              </Guard>
            }
          />
          <Route
            path="users"
            element={
              <Guard permission="users.manage">
                <UsersScreen />
              </Guard>
            }
          />
          <Route
            path="mail"
            element={
              <Guard permission="users.manage">
                <MailScreen />
              </Guard>
            }
          />
          <Route
            path="webhooks"
            element={
              <Guard permission="webhooks.manage">
                <WebhooksScreen />
              </Guard>
            }
          />
          <Route
            path="activity"
            element={
              <Guard permission="audit.read">
                <ActivityScreen />
              </Guard>
            }
          />
          <Route path="password" element={<PasswordScreen />} />
          <Route
            path="contact"
            element={
              <Suspense fallback={<p role="status">{t('loading')}</p>}>
                <ContactPage />
              </Suspense>
            }
          />
          <Route path="*" element={<NoAccess notFound />} />
        </Route>
      </Routes>
      {(state.matches({ signedIn: 'expired' }) || state.matches({ signedIn: 'reauthenticating' })) && (
        <SessionExpiredDialog
          email={session.user.email}
          busy={state.matches({ signedIn: 'reauthenticating' })}
          error={state.context.error}
          onSubmit={(email, password) => send({ type: 'login.submit', email, password })}
        />
      )}
      {state.context.secondStep &&
        (state.matches({ signedIn: 'expiredSecondStep' }) ||
          state.matches({ signedIn: 'reverifying' }) ||
          state.matches({ signedIn: 'reverifyingPasskey' })) && (
          <Modal open title={t('reauth.title')} onClose={() => undefined} closeOnBackdrop={false}>
            <SecondStepForm
              idPrefix="reauth-step"
              inDialog
              step={state.context.secondStep}
              busy={!state.matches({ signedIn: 'expiredSecondStep' })}
              error={state.context.error}
              onCode={(code) => send({ type: 'code.submit', code })}
              onPasskey={() => send({ type: 'passkey.use' })}
              onCancel={() => send({ type: 'secondStep.cancel' })}
            />
          </Modal>
        )}
      {user && <FreshProof />}
      <Modal
        open={state.matches({ leaving: 'asking' })}
        title={t('auth.waitingTitle')}
        onClose={() => send({ type: 'signout.cancel' })}
      >
        <p>{t('auth.waiting', { count: state.context.waiting })}</p>
        <div className={s.dialogActions}>
          <button type="button" className={s.primary} onClick={() => send({ type: 'signout.cancel' })}>
            {t('auth.stay')}
          </button>
          <button type="button" className={s.danger} onClick={() => send({ type: 'signout.confirm' })}>
            {t('auth.signOutAnyway')}
          </button>
        </div>
      </Modal>
    </AdminSessionContext.Provider>
  );
}
