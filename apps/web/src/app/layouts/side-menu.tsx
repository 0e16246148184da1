import {
  CalendarDays,
  CheckSquare,
  Columns3,
  LayoutDashboard,
  LogOut,
  PlusSquare,
  Settings,
  Tags,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { NavLink, useLocation } from 'react-router-dom';
import { Avatar } from '../../components/ui/avatar';
import { paths } from '../../config/paths';
import { useT } from '../../lib/i18n';
import type { en } from '../../locales/en';
import { useSession } from '../../lib/session';
import { ThemeToggle } from './theme-toggle';

interface MenuEntry {
  /** The entry's text, a key of the `nav` messages (en.ts, de.ts). */
  label: `nav.${keyof typeof en.nav}`;
  path: string;
  icon: LucideIcon;
}

const adminMenu: MenuEntry[] = [
  { label: 'nav.dashboard', path: paths.admin.dashboard, icon: LayoutDashboard },
  { label: 'nav.manageTasks', path: paths.admin.tasks, icon: CheckSquare },
  { label: 'nav.board', path: paths.admin.board, icon: Columns3 },
  { label: 'nav.calendar', path: paths.admin.calendar, icon: CalendarDays },
  { label: 'nav.createTask', path: paths.admin.createTask, icon: PlusSquare },
  { label: 'nav.labels', path: paths.admin.labels, icon: Tags },
  { label: 'nav.teamMember', path: paths.admin.users, icon: Users },
  { label: 'nav.settings', path: paths.admin.settings, icon: Settings },
];

const memberMenu: MenuEntry[] = [
  { label: 'nav.dashboard', path: paths.user.dashboard, icon: LayoutDashboard },
  { label: 'nav.myTasks', path: paths.user.tasks, icon: CheckSquare },
  { label: 'nav.board', path: paths.user.board, icon: Columns3 },
  { label: 'nav.calendar', path: paths.user.calendar, icon: CalendarDays },
];

/** The entry whose path equals or prefixes the current path is the active one. */
export function isActiveEntry(entryPath: string, currentPath: string): boolean {
  return currentPath === entryPath || currentPath.startsWith(`${entryPath}/`);
}

export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { user, signOut } = useSession();
  const { pathname } = useLocation();
  const t = useT();
  if (!user) return null;
  const entries = user.role === 'admin' ? adminMenu : memberMenu;
  return (
    <nav aria-label={t('nav.main')} className="flex h-full flex-col bg-white">
      {/* The name and photo open the person's own profile. */}
      <NavLink
        to={paths.profile}
        onClick={onNavigate}
        aria-label={t('nav.yourProfile', { name: user.name })}
        className="flex flex-col items-center gap-1 border-b border-slate-200 px-4 py-6 text-center hover:bg-slate-50"
      >
        <Avatar person={user} size={72} />
        {user.role === 'admin' && (
          <span className="mt-1 rounded bg-blue-700 px-2 py-0.5 text-xs font-medium text-white">
            {t('common.admin')}
          </span>
        )}
        {/* A long name (or one long word) ends in "..." inside the menu; hovering shows it all. */}
        <p title={user.name} className="mt-1 max-w-full truncate font-medium text-slate-900">
          {user.name}
        </p>
        <p title={user.email} className="max-w-full truncate text-sm text-slate-600">
          {user.email}
        </p>
      </NavLink>
      <ul className="flex flex-col gap-1 py-4">
        {entries.map(({ label, path, icon: Icon }) => {
          const active = isActiveEntry(path, pathname);
          return (
            <li key={path}>
              <NavLink
                to={path}
                onClick={onNavigate}
                aria-current={active ? 'page' : undefined}
                className={`flex items-center gap-3 border-r-4 px-6 py-2.5 text-sm ${
                  active
                    ? 'border-blue-700 bg-blue-50 font-medium text-blue-800'
                    : 'border-transparent text-slate-700 hover:bg-slate-50'
                }`}
              >
                <Icon size={18} aria-hidden />
                {t(label)}
              </NavLink>
            </li>
          );
        })}
        <li>
          <button
            type="button"
            onClick={signOut}
            className="flex w-full items-center gap-3 border-r-4 border-transparent px-6 py-2.5 text-left text-sm text-slate-700 hover:bg-slate-50"
          >
            <LogOut size={18} aria-hidden />
            {t('nav.logout')}
          </button>
        </li>
      </ul>
      <div className="mt-auto border-t border-slate-200 px-4 py-3">
        <ThemeToggle />
      </div>
    </nav>
  );
}
