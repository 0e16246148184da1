import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { useT } from '../lib/i18n';

export function NotFoundPage() {
  const t = useT();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-50 p-6 text-center">
      <p className="text-5xl font-bold text-blue-700">404</p>
      <h1 className="text-2xl font-semibold text-slate-900">{t('nav.notFound')}</h1>
      <p className="text-slate-600">{t('nav.notFoundText')}</p>
      <Link
        to={paths.root}
        className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
      >
        {t('nav.goToDashboard')}
      </Link>
    </main>
  );
}
