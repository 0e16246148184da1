import type { CalendarScope } from '@task-manager/shared';
import { RefreshCw } from 'lucide-react';
import { ConfirmAction } from '../../../components/ui/confirm-action';
import { CopyField } from '../../../components/ui/copy-field';
import { ErrorState, Spinner } from '../../../components/ui/feedback';
import { SectionCard } from '../../../components/ui/section-card';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import {
  useCalendarFeed,
  useRotateCalendarFeed,
  useUpdateCalendarScope,
} from '../api/calendar-feed';

/**
 * The profile's calendar link: the secret iCalendar address with a Copy button, a new address
 * on demand (the old one stops working), and for admins whose tasks the feed holds.
 */
export function CalendarFeedSection() {
  const { user } = useSession();
  const feed = useCalendarFeed();
  const rotate = useRotateCalendarFeed();
  const scope = useUpdateCalendarScope();
  const t = useT();
  const failed = (failure: unknown) =>
    notify('error', errorMessage(failure, t('notifications.calendar.failed')));

  let body;
  if (feed.isPending) body = <Spinner />;
  else if (!feed.data)
    body = (
      <ErrorState
        message={t('notifications.calendar.loadFailed')}
        onRetry={() => void feed.refetch()}
      />
    );
  else {
    const url = new URL(feed.data.url, window.location.origin).href;
    body = (
      <>
        <p className="text-sm text-slate-700">{t('notifications.calendar.hint')}</p>
        <CopyField label={t('notifications.calendar.url')} value={url} />
        {user?.role === 'admin' && (
          <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
            {t('notifications.calendar.scope')}
            <select
              value={feed.data.scope}
              disabled={scope.isPending}
              onChange={(event) =>
                scope.mutate(event.target.value as CalendarScope, {
                  onSuccess: () => notify('success', t('notifications.calendar.scopeSaved')),
                  onError: failed,
                })
              }
              className="max-w-xs rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
            >
              <option value="mine">{t('notifications.calendar.scopeMine')}</option>
              <option value="all">{t('notifications.calendar.scopeAll')}</option>
            </select>
          </label>
        )}
        <ConfirmAction
          label={t('notifications.calendar.rotate')}
          icon={<RefreshCw size={16} aria-hidden />}
          hint={t('notifications.calendar.rotateHint')}
          confirmLabel={t('notifications.calendar.confirmRotate')}
          pending={rotate.isPending}
          onConfirm={(done) =>
            rotate.mutate(undefined, {
              onSuccess: () => {
                done();
                notify('success', t('notifications.calendar.rotated'));
              },
              onError: failed,
            })
          }
        />
      </>
    );
  }
  return (
    <SectionCard title={t('notifications.calendar.title')} id="profile-calendar">
      {body}
    </SectionCard>
  );
}
