import {
  CheckSquare,
  LayoutDashboard,
  LogOut,
  PlusSquare,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { NavLink, useLocation } from 'react-router-dom';
import { Avatar } from '../../components/ui/avatar';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';

interface MenuEntry {
  label: string;
  path: string;
  icon: LucideIcon;
}

const adminMenu: MenuEntry[] = [
  { label: 'Dashboard', path: paths.admin.dashboard, icon: LayoutDashboard },
  { label: 'Manage Tasks', path: paths.admin.tasks, icon: CheckSquare },
  { label: 'Create Task', path: paths.admin.createTask, icon: PlusSquare },
  { label: 'Team Member', path: paths.admin.users, icon: Users },
];

const memberMenu: MenuEntry[] = [
  { label: 'Dashboard', path: paths.user.dashboard, icon: LayoutDashboard },
  { label: 'My Tasks', path: paths.user.tasks, icon: CheckSquare },
];

/** The entry whose path equals or prefixes the current path is the active one. */
export function isActiveEntry(entryPath: string, currentPath: string): boolean {
  return currentPath === entryPath || currentPath.startsWith(`${entryPath}/`);
}

export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { user, signOut } = useSession();
  const { pathname } = useLocation();
  if (!user) return null;
  const entries = user.role === 'admin' ? adminMenu : memberMenu;
  return (
    <nav aria-label="Main" className="flex h-full flex-col bg-white">
      <div className="flex flex-col items-center gap-1 border-b border-slate-200 px-4 py-6 text-center">
        <Avatar person={user} size={72} />
        {user.role === 'admin' && (
          <span className="mt-1 rounded bg-blue-700 px-2 py-0.5 text-xs font-medium text-white">
            Admin
          </span>
        )}
        <p className="mt-1 font-medium text-slate-900">{user.name}</p>
        <p className="max-w-full truncate text-sm text-slate-600">{user.email}</p>
      </div>
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
                {label}
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
            Logout
          </button>
        </li>
      </ul>
    </nav>
  );
}
