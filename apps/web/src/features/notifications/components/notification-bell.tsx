import { Bell } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../../lib/i18n';
import { useUnreadCount } from '../api/get-unread-count';
import { NotificationPanel } from './notification-panel';

/** The badge shows up to 99; the accessible name says the real number. */
function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The bell in the top bar: the unread count as a badge, and a panel of the notifications under
 * it. Escape or a click elsewhere closes the panel; Escape gives the focus back to the bell.
 */
export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const unread = useUnreadCount();
  const t = useT();
  const count = unread.data ?? 0;

  const close = useCallback((restoreFocus: boolean) => {
    setOpen(false);
    if (restoreFocus) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      close(true);
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) close(false);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open, close]);

  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        type="button"
        onClick={() => setOpen((wasOpen) => !wasOpen)}
        aria-label={count > 0 ? t('notifications.bellUnread', { count }) : t('notifications.bell')}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-haspopup="dialog"
        className="relative rounded-full p-2 text-slate-700 hover:bg-slate-100"
      >
        <Bell size={20} aria-hidden />
        {count > 0 && (
          <span
            aria-hidden
            data-testid="unread-badge"
            className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-semibold text-white"
          >
            {badgeText(count)}
          </span>
        )}
      </button>
      {open && <NotificationPanel id={panelId} unreadCount={count} onClose={close} />}
    </div>
  );
}
