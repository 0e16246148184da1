import { isRouteErrorResponse, Link, useRouteError } from 'react-router-dom';
import { paths } from '../config/paths';
import { NotFoundPage } from './not-found-page';

/** A page that failed to load (for example a chunk missing after a deploy) or threw while rendering. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-50 p-6 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">Something went wrong</h1>
      <p className="text-slate-600">This page could not be shown. Reloading usually helps.</p>
      <div className="flex gap-2">
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
        >
          Reload
        </button>
        <Link
          to={paths.root}
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800"
        >
          Go to your dashboard
        </Link>
      </div>
    </main>
  );
}
