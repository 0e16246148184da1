import { Monitor, Moon, Sun, type LucideIcon } from 'lucide-react';
import { useT } from '../../lib/i18n';
import { setThemeChoice, useTheme, type ThemeChoice } from '../../lib/theme';

const OPTIONS = [
  { choice: 'system', label: 'nav.themeSystem', icon: Monitor },
  { choice: 'light', label: 'nav.themeLight', icon: Sun },
  { choice: 'dark', label: 'nav.themeDark', icon: Moon },
] as const satisfies ReadonlyArray<{ choice: ThemeChoice; label: string; icon: LucideIcon }>;

/** The theme switch at the foot of the side menu: follow the system, light, or dark. */
export function ThemeToggle() {
  const { choice } = useTheme();
  const t = useT();
  return (
    <div
      role="group"
      aria-label={t('nav.theme')}
      className="flex gap-1 rounded-md bg-slate-100 p-1"
    >
      {OPTIONS.map(({ choice: option, label, icon: Icon }) => (
        <button
          key={option}
          type="button"
          aria-pressed={choice === option}
          onClick={() => setThemeChoice(option)}
          className={`flex flex-1 items-center justify-center gap-1 rounded px-2 py-1 text-xs ${
            choice === option
              ? 'bg-white font-medium text-slate-900 shadow-sm'
              : 'text-slate-700 hover:bg-slate-200'
          }`}
        >
          <Icon size={14} aria-hidden />
          {t(label)}
        </button>
      ))}
    </div>
  );
}
