import { EMAIL_MODES, NOTIFICATION_TYPES, type EmailMode } from '@task-manager/shared';
import { ErrorState, Spinner } from '../../../components/ui/feedback';
import { SectionCard } from '../../../components/ui/section-card';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useNotificationPreferences, useUpdateNotificationPreferences } from '../api/preferences';

/**
 * The profile's e-mail choices: per kind of notification at once, in the daily digest, or
 * never. Each choice saves on its own; the section says when the server sends no e-mail at all.
 */
export function EmailPreferencesSection() {
  const preferences = useNotificationPreferences();
  const update = useUpdateNotificationPreferences();
  const t = useT();

  function choose(kind: (typeof NOTIFICATION_TYPES)[number], mode: EmailMode) {
    update.mutate(
      { email: { [kind]: mode } },
      {
        onSuccess: () => notify('success', t('notifications.email.saved'), { id: 'email-prefs' }),
        onError: (failure) =>
          notify('error', errorMessage(failure, t('notifications.email.saveFailed'))),
      },
    );
  }

  return (
    <SectionCard title={t('notifications.email.title')} id="profile-email-notifications">
      {preferences.isPending ? (
        <Spinner />
      ) : !preferences.data ? (
        <ErrorState
          message={t('notifications.email.loadFailed')}
          onRetry={() => void preferences.refetch()}
        />
      ) : (
        <>
          {!preferences.data.emailEnabled && (
            <p role="note" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
              {t('notifications.email.disabled')}
            </p>
          )}
          <p className="text-sm text-slate-700">{t('notifications.email.hint')}</p>
          <div className="flex flex-col gap-3">
            {NOTIFICATION_TYPES.map((kind) => (
              <label
                key={kind}
                className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-800"
              >
                {t(`notifications.email.kinds.${kind}`)}
                <select
                  value={preferences.data.email[kind]}
                  disabled={update.isPending}
                  onChange={(event) => choose(kind, event.target.value as EmailMode)}
                  className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm text-slate-900"
                >
                  {EMAIL_MODES.map((mode) => (
                    <option key={mode} value={mode}>
                      {t(`notifications.email.${mode}`)}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
        </>
      )}
    </SectionCard>
  );
}
