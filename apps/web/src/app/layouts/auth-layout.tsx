import { Outlet } from 'react-router-dom';
import { useT } from '../../lib/i18n';

/** Two columns: the form on the left (60%), a decorative panel on the right (40%, hidden on small screens). */
export function AuthLayout() {
  const t = useT();
  return (
    <div className="flex min-h-screen bg-white">
      <main className="flex w-full flex-col px-6 pt-6 pb-12 md:w-[60vw] md:px-12">
        <p className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <img src="/favicon.svg" alt={t('nav.logo')} width={28} height={28} />
          Task Manager
        </p>
        <div className="flex flex-1 items-center">
          <div className="w-full max-w-lg">
            <Outlet />
          </div>
        </div>
      </main>
      <div
        aria-hidden
        className="hidden overflow-hidden bg-blue-50 bg-[url('/auth-background.svg')] bg-cover bg-center md:block md:w-[40vw]"
      />
    </div>
  );
}
