import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

/** Last-resort screen when a route fails to load (for example a chunk lost after a deploy). */
export function RouteError() {
  const { t } = useTranslation('common');
  return (
    <main id="main" className="container" style={{ padding: '4rem 1.5rem' }}>
      <h1>{t('routeError.title')}</h1>
      <p>{t('routeError.text')}</p>
      <button type="button" onClick={() => window.location.reload()}>
        {t('routeError.reload')}
      </button>
    </main>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** The address: a new one clears the error (without remounting what is below). */
  resetKey: string;
}

class Boundary extends Component<BoundaryProps, { error: unknown; resetKey: string }> {
  state = { error: undefined as unknown, resetKey: this.props.resetKey };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  static getDerivedStateFromProps(props: BoundaryProps, state: { error: unknown; resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { error: undefined, resetKey: props.resetKey };
  }
  componentDidCatch(error: unknown) {
    console.warn('Route failed to render', error);
  }
  render() {
    return this.state.error === undefined ? this.props.children : <RouteError />;
  }
}

/** Shows RouteError when its screen throws; moving to another address tries again. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}
