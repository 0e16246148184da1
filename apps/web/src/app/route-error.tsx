import { Component, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { useT } from '../lib/i18n';

/** A page that failed to load (for example a chunk missing after a deploy) or threw while rendering. */
export function RouteError() {
  const t = useT();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-50 p-6 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">{t('nav.failed')}</h1>
      <p className="text-slate-600">{t('nav.failedText')}</p>
      <div className="flex gap-2">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
        >
          {t('nav.reload')}
        </button>
        <Link
          to={paths.root}
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800"
        >
          {t('nav.goToDashboard')}
        </Link>
      </div>
    </main>
  );
}

interface BoundaryProps {
  /** Changes with the location: moving to another page clears the error. */
  resetKey: string;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
  resetKey: string;
}

/** Shows RouteError instead of a page that threw (React logs the error), until the page changes. */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: BoundaryProps,
    state: BoundaryState,
  ): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}
