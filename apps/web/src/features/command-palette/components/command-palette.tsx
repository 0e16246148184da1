import { lazy, Suspense, useEffect, useState } from 'react';
import { withAppTexts } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';

// The palette's code (and the signed-in screens' texts) load on its first use: only the
// shortcut's listener is in the first load.
const Palette = lazy(async () => ({
  default: (await withAppTexts(import('./palette'))).Palette,
}));

/** Ctrl+K or Cmd+K, from anywhere (also while typing: it is the palette's own shortcut). */
function isPaletteShortcut(event: globalThis.KeyboardEvent) {
  return (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';
}

/**
 * The command palette (Ctrl/Cmd+K): type to jump to a page or, by search, to a task. A combobox
 * over a listbox: arrows choose, Enter opens, Escape closes.
 */
export function CommandPalette() {
  const { user } = useSession();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    function onKeyDown(event: globalThis.KeyboardEvent) {
      if (!isPaletteShortcut(event)) return;
      event.preventDefault();
      setOpen((value) => !value);
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  if (!user || !open) return null;
  return (
    <Suspense fallback={null}>
      <Palette role={user.role} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
