import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Modal } from '../components/ui/modal';
import { paths } from '../config/paths';
import { useT } from '../lib/i18n';
import { focusNextItem, focusSearch, tickFocusedItem, useShortcuts } from '../lib/shortcuts';
import { mayLeaveChangedForms } from '../lib/back-button-guard';
import { useSession } from '../lib/session';

interface Help {
  keys: string[];
  what: string;
}

function helpFor(isAdmin: boolean, t: ReturnType<typeof useT>): Help[] {
  return [
    ...(isAdmin ? [{ keys: ['c'], what: t('shortcuts.create') }] : []),
    { keys: ['/'], what: t('shortcuts.search') },
    { keys: ['g', 'd'], what: t('shortcuts.dashboard') },
    { keys: ['g', 't'], what: isAdmin ? t('shortcuts.manageTasks') : t('shortcuts.myTasks') },
    { keys: ['j'], what: t('shortcuts.next') },
    { keys: ['k'], what: t('shortcuts.previous') },
    { keys: ['Enter'], what: t('shortcuts.open') },
    { keys: ['x'], what: t('shortcuts.tick') },
    { keys: ['Esc'], what: t('shortcuts.close') },
    { keys: ['?'], what: t('shortcuts.help') },
  ];
}

/**
 * The signed-in app's keyboard shortcuts, and the `?` overlay that lists them. None fires while
 * someone types in a field (lib/shortcuts.ts).
 */
export function KeyboardShortcuts() {
  const { user } = useSession();
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  const isAdmin = user?.role === 'admin';
  const t = useT();
  // A form with unsaved changes asks first, as a link does.
  const go = (to: string) => {
    if (mayLeaveChangedForms()) void navigate(to);
  };

  useShortcuts(
    {
      '?': () => setHelpOpen(true),
      '/': () => void focusSearch(),
      'g d': () => go(isAdmin ? paths.admin.dashboard : paths.user.dashboard),
      'g t': () => go(isAdmin ? paths.admin.tasks : paths.user.tasks),
      j: () => focusNextItem(1),
      k: () => focusNextItem(-1),
      x: () => tickFocusedItem(),
      ...(isAdmin && { c: () => go(paths.admin.createTask) }),
    },
    !!user && !helpOpen,
  );

  return (
    <Modal open={helpOpen} title={t('shortcuts.title')} onClose={() => setHelpOpen(false)}>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        {helpFor(isAdmin, t).map(({ keys, what }) => (
          <div key={what} className="contents">
            <dt className="flex gap-1">
              {keys.map((key) => (
                <kbd
                  key={key}
                  className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-900"
                >
                  {key}
                </kbd>
              ))}
            </dt>
            <dd className="text-slate-800">{what}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}

/**
 * After every navigation inside the app, focus goes to the new page's main heading, so a screen
 * reader reads where the person landed and Tab starts from the page, not from the old link.
 */
export function useFocusHeadingOnNavigate(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    // The first page keeps the browser's own focus (the start of the document).
    if (first.current) {
      first.current = false;
      return;
    }
    let tries = 0;
    // The page may still be loading its chunk: look for its heading for a moment.
    const timer = setInterval(() => {
      const heading = document.querySelector<HTMLElement>('main h1');
      tries += 1;
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      }
      if (heading || tries > 40) clearInterval(timer);
    }, 50);
    return () => clearInterval(timer);
  }, [pathname]);
}
