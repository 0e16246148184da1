import type { CreatedInvite, Invite } from '@task-manager/shared';
import { Copy, RefreshCw } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmAction } from '../../../components/ui/confirm-action';
import { copyToClipboard, CopyField } from '../../../components/ui/copy-field';
import { SectionCard } from '../../../components/ui/section-card';
import { EmptyState, ErrorState, Spinner } from '../../../components/ui/feedback';
import { FormError, inputClass, TextField } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import {
  useCreateInvite,
  useInvites,
  useRevokeInvite,
  useRotateAdminInviteToken,
  useSettings,
} from '../api/settings';

/** /admin/settings: how people join (sign-up mode, the admin invite code) and the invitations. */
export function SettingsPage() {
  const t = useT();
  return (
    <section aria-labelledby="settings-heading" className="flex max-w-3xl flex-col gap-5">
      <h1 id="settings-heading" tabIndex={-1} className="text-xl font-semibold text-slate-900">
        {t('settings.heading')}
      </h1>
      <SignupSection />
      <InvitationsSection />
    </section>
  );
}

function SignupSection() {
  const settings = useSettings();
  const rotate = useRotateAdminInviteToken();
  const t = useT();

  let body: ReactNode;
  if (settings.isPending) body = <Spinner label={t('common.loading')} />;
  else if (!settings.data)
    body = (
      <ErrorState message={t('settings.loadFailed')} onRetry={() => void settings.refetch()} />
    );
  else {
    const { signupMode, adminInviteToken } = settings.data;
    body = (
      <>
        <p className="text-sm text-slate-700">
          {signupMode === 'invite' ? t('settings.inviteMode') : t('settings.openMode')}
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <span className="text-sm font-medium text-slate-700">
            {t('settings.adminInviteToken')}
          </span>
          <code className="rounded bg-slate-100 px-2 py-1 font-mono text-base text-slate-900">
            {adminInviteToken}
          </code>
          <Button variant="ghost" onClick={() => copyToClipboard(adminInviteToken)}>
            <Copy size={16} aria-hidden />
            {t('common.copy')}
          </Button>
        </div>
        <p className="text-sm text-slate-600">{t('settings.tokenHint')}</p>
        <ConfirmAction
          label={t('settings.rotate')}
          icon={<RefreshCw size={16} aria-hidden />}
          confirmLabel={t('settings.confirmRotate')}
          pending={rotate.isPending}
          onConfirm={(done) =>
            rotate.mutate(undefined, {
              onSuccess: () => {
                done();
                notify('success', t('settings.rotated'));
              },
              onError: (failure) =>
                notify('error', errorMessage(failure, t('settings.rotateFailed'))),
            })
          }
        />
      </>
    );
  }
  return (
    <SectionCard title={t('settings.signup')} id="settings-signup">
      {body}
    </SectionCard>
  );
}

const STATUS_TEXT = {
  pending: 'settings.pending',
  used: 'settings.used',
  expired: 'settings.expired',
  revoked: 'settings.revoked',
} as const satisfies Record<Invite['status'], string>;

function InvitationsSection() {
  const invites = useInvites();
  const revoke = useRevokeInvite();
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const t = useT();

  return (
    <SectionCard title={t('settings.invitations')} id="settings-invitations">
      <p className="text-sm text-slate-600">{t('settings.invitationsHint')}</p>
      <NewInvitation onCreated={setCreated} />
      {created && <CreatedLink invite={created} />}
      {invites.isPending ? (
        <Spinner label={t('common.loading')} />
      ) : !invites.data ? (
        <ErrorState
          message={t('settings.invitationsFailed')}
          onRetry={() => void invites.refetch()}
        />
      ) : invites.data.length === 0 ? (
        <EmptyState title={t('settings.noInvitations')} />
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('settings.invitations')}</caption>
          <thead className="text-slate-600">
            <tr>
              <th scope="col" className="py-2 font-medium">
                {t('settings.for')}
              </th>
              <th scope="col" className="py-2 font-medium">
                {t('settings.role')}
              </th>
              <th scope="col" className="py-2 font-medium">
                {t('settings.status')}
              </th>
              <th scope="col" className="py-2 font-medium">
                {t('settings.expires')}
              </th>
              <th scope="col" className="py-2">
                <span className="sr-only">{t('settings.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="text-slate-800">
            {invites.data.map((invite) => (
              <tr key={invite._id} className="border-t border-slate-200">
                <td className="py-2 break-all">{invite.email ?? t('settings.anyoneWithLink')}</td>
                <td className="py-2">
                  {invite.role === 'admin' ? t('common.admin') : t('common.member')}
                </td>
                <td className="py-2">{t(STATUS_TEXT[invite.status])}</td>
                <td className="py-2">{formatDate(invite.expiresAt)}</td>
                <td className="py-2 text-right">
                  {invite.status === 'pending' && (
                    <Button
                      variant="ghost"
                      disabled={revoke.isPending}
                      aria-label={t('settings.revokeFor', {
                        who: invite.email ?? t('settings.anyone'),
                      })}
                      onClick={() =>
                        revoke.mutate(invite._id, {
                          onSuccess: () => notify('success', t('settings.invitationRevoked')),
                          onError: (failure) =>
                            notify('error', errorMessage(failure, t('settings.revokeFailed'))),
                        })
                      }
                    >
                      {t('settings.revoke')}
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </SectionCard>
  );
}

function NewInvitation({ onCreated }: { onCreated: (invite: CreatedInvite) => void }) {
  const [role, setRole] = useState<'member' | 'admin'>('member');
  const [email, setEmail] = useState('');
  const [days, setDays] = useState(7);
  const [error, setError] = useState<string | null>(null);
  const create = useCreateInvite();
  const roleId = useId();
  const daysId = useId();
  const t = useT();

  function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    create.mutate(
      { role, expiresInDays: days, ...(email.trim() && { email: email.trim() }) },
      {
        onSuccess: (invite) => {
          setEmail('');
          onCreated(invite);
        },
        onError: (failure) => setError(errorMessage(failure, t('settings.createFailed'))),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      <div className="grid gap-3 sm:grid-cols-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={roleId} className="text-sm font-medium text-slate-700">
            {t('settings.role')}
          </label>
          <select
            id={roleId}
            value={role}
            onChange={(event) => setRole(event.target.value as 'member' | 'admin')}
            className={inputClass}
          >
            <option value="member">{t('common.member')}</option>
            <option value="admin">{t('common.admin')}</option>
          </select>
        </div>
        <TextField
          label={t('settings.emailOptional')}
          type="email"
          placeholder={t('settings.anyoneWithLink')}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={daysId} className="text-sm font-medium text-slate-700">
            {t('settings.expiresIn')}
          </label>
          <select
            id={daysId}
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
            className={inputClass}
          >
            {[1, 7, 30].map((count) => (
              <option key={count} value={count}>
                {t('settings.days', { count })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <FormError message={error} />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {t('settings.createLink')}
        </Button>
      </div>
    </form>
  );
}

function CreatedLink({ invite }: { invite: CreatedInvite }) {
  const link = new URL(invite.url, window.location.origin).href;
  const t = useT();
  return (
    <div className="rounded-md border border-green-300 bg-green-50 p-3">
      <CopyField label={t('settings.newLink')} value={link} />
    </div>
  );
}
