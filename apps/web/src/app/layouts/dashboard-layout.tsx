import { Menu, X } from 'lucide-react';
import { Suspense, useEffect, useState } from 'react';
import { Outlet } from 'react-router-dom';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { useT } from '../../lib/i18n';
import { useLiveUpdates } from '../../lib/live-updates';
import { useSession } from '../../lib/session';
import { KeyboardShortcuts, useFocusHeadingOnNavigate } from '../keyboard-shortcuts';
import { PageSkeleton } from './frame-skeleton';
import { SideMenu } from './side-menu';

/**
 * The signed-in frame: top bar with the logo, the side menu from 1080 px up, and under 1080 px
 * the menu behind a hamburger button.
 */
export function DashboardLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  // While the small-screen menu is open the page behind it does not scroll.
  useEffect(() => {
    if (!menuOpen) return;
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
    };
  }, [menuOpen]);
  useFocusHeadingOnNavigate();
  // Every page of the signed-in frame follows the changes others make (issue 17).
  const { user } = useSession();
  useLiveUpdates(user?._id);
  const t = useT();
  return (
    <div className="min-h-screen bg-slate-50">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-blue-700 px-3 py-2 text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('shortcuts.skipToMain')}
      </a>
      <KeyboardShortcuts />
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white px-4">
        <button
          type="button"
          onClick={() => setMenuOpen((open) => !open)}
          aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          className="rounded p-1.5 text-slate-800 hover:bg-slate-100 min-[1080px]:hidden"
        >
          {menuOpen ? <X size={22} aria-hidden /> : <Menu size={22} aria-hidden />}
        </button>
        <p className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <img src="/favicon.svg" alt="" width={24} height={24} />
          Task Manager
        </p>
        <div className="ml-auto flex items-center">
          <NotificationBell />
        </div>
      </header>
      {menuOpen && (
        // The page behind the open menu is dimmed and cannot scroll; a tap on it closes the menu.
        <div
          aria-hidden
          onClick={() => setMenuOpen(false)}
          className="fixed inset-x-0 top-14 bottom-0 z-10 bg-black/40 min-[1080px]:hidden"
        />
      )}
      {menuOpen && (
        <div
          id="mobile-menu"
          className="fixed inset-x-0 top-14 bottom-0 z-20 w-64 border-r border-slate-200 shadow-lg min-[1080px]:hidden"
        >
          <SideMenu onNavigate={() => setMenuOpen(false)} />
        </div>
      )}
      <div className="flex">
        <aside className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-64 shrink-0 border-r border-slate-200 min-[1080px]:block">
          <SideMenu />
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-5 md:px-6">
          {/* The frame stays while a page's code loads: the page's skeleton stands in for it. */}
          <Suspense fallback={<PageSkeleton />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
