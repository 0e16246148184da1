import type { Notification } from '@task-manager/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/feedback';
import { taskPathFor } from '../../../config/paths';
import { pagingOf, uniqueById } from '../../../lib/infinite-paging';
import { currentLanguage, useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useNotifications } from '../api/get-notifications';
import { useMarkNotificationsRead } from '../api/mark-notifications-read';
import { notificationSentence, relativeTime } from '../notification-text';

/**
 * The open bell: the person's notifications, newest first. A click marks one read and opens its
 * task; "Mark all as read" clears the count. Focus moves into the panel when it opens.
 */
export function NotificationPanel({
  id,
  unreadCount,
  onClose,
}: {
  id: string;
  unreadCount: number;
  onClose: (restoreFocus: boolean) => void;
}) {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const query = useNotifications(unreadOnly, true);
  const markRead = useMarkNotificationsRead();
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const t = useT();

  useEffect(() => heading.current?.focus(), []);

  const items = uniqueById(query.data?.pages.map((page) => page.items) ?? []);
  const paging = pagingOf(query);

  return (
    <div
      id={id}
      role="dialog"
      aria-labelledby={headingId}
      className="absolute top-full right-0 z-40 mt-2 flex max-h-[min(32rem,calc(100vh-5rem))] w-[min(24rem,calc(100vw-1.5rem))] flex-col rounded-lg border border-slate-200 bg-white text-slate-900 shadow-xl"
    >
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-4 py-3">
        <h2 ref={heading} id={headingId} tabIndex={-1} className="text-base font-semibold">
          {t('notifications.title')}
        </h2>
        <Button
          variant="ghost"
          className="px-2 py-1"
          disabled={unreadCount === 0 || markRead.isPending}
          onClick={() =>
            markRead.mutate(
              { all: true },
              { onError: () => notify('error', t('notifications.markAllFailed')) },
            )
          }
        >
          {t('notifications.markAllRead')}
        </Button>
        <label className="flex w-full items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(event) => setUnreadOnly(event.target.checked)}
          />
          {t('notifications.unreadOnly')}
        </label>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {query.isPending ? (
          <Spinner />
        ) : query.isError && items.length === 0 ? (
          <p role="alert" className="p-4 text-sm text-red-800">
            {t('notifications.loadFailed')}
          </p>
        ) : items.length === 0 ? (
          <p className="p-4 text-sm text-slate-600">
            {unreadOnly ? t('notifications.emptyUnread') : t('notifications.empty')}
          </p>
        ) : (
          <ul aria-labelledby={headingId} className="divide-y divide-slate-200">
            {items.map((notification) => (
              <li key={notification._id}>
                <NotificationItem notification={notification} onOpened={() => onClose(false)} />
              </li>
            ))}
          </ul>
        )}
        {paging.canLoadMore && (
          <div className="p-3 text-center">
            <Button variant="secondary" onClick={paging.onLoadMore}>
              {t('notifications.loadMore')}
            </Button>
          </div>
        )}
        {paging.loadingMore && <Spinner />}
      </div>
    </div>
  );
}

function NotificationItem({
  notification,
  onOpened,
}: {
  notification: Notification;
  onOpened: () => void;
}) {
  const { user } = useSession();
  const navigate = useNavigate();
  const markRead = useMarkNotificationsRead();
  const t = useT();
  const language = currentLanguage();
  const unread = notification.readAt === null;

  function open() {
    if (unread) markRead.mutate({ ids: [notification._id] });
    onOpened();
    if (notification.task) void navigate(taskPathFor(user?.role, notification.task._id));
  }

  return (
    <button
      type="button"
      onClick={open}
      className={`flex w-full items-start gap-3 px-4 py-3 text-left text-sm hover:bg-slate-50 ${
        unread ? 'bg-blue-50' : ''
      }`}
    >
      <span
        aria-hidden
        className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${unread ? 'bg-blue-700' : 'bg-transparent'}`}
      />
      <span className="flex min-w-0 flex-col gap-0.5">
        {unread && <span className="sr-only">{t('notifications.unread')}: </span>}
        <span className={unread ? 'font-medium text-slate-900' : 'text-slate-700'}>
          {notificationSentence(notification, t, language)}
        </span>
        <time dateTime={notification.createdAt} className="text-xs text-slate-600">
          {relativeTime(notification.createdAt, new Date(), t, language)}
        </time>
      </span>
    </button>
  );
}
