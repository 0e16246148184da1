import type { UserWithTaskCounts } from '@task-manager/shared';
import { Settings2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyField } from '../../../components/ui/copy-field';
import { FormError } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { useUsers } from '../../../lib/get-users';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import {
  useChangeMember,
  useCreateResetLink,
  useDeleteMember,
  type MemberChange,
} from '../api/manage-members';

/** A person on the team page; `active` is false once an admin has deactivated them. */
export type Member = UserWithTaskCounts & { active?: boolean };

export const isDeactivated = (member: Member) => member.active === false;

const openTaskCountOf = (member: Member) => member.pendingTasks + member.inProgressTasks;
const taskCountOf = (member: Member) => openTaskCountOf(member) + member.completedTasks;

type Step = 'menu' | 'deactivate' | 'delete' | 'link';

/** The gear on a member's card: it asks the page to open that member's dialog. */
export function ManageMemberButton({
  member,
  onManage,
}: {
  member: Member;
  onManage: (member: Member) => void;
}) {
  const t = useT();
  return (
    <Button
      variant="ghost"
      className="px-2 py-1"
      aria-label={t('team.manage', { name: member.name })}
      onClick={() => onManage(member)}
    >
      <Settings2 size={18} aria-hidden />
    </Button>
  );
}

/**
 * Which member's dialog is open, held by the page rather than by a card: the cards live in a
 * virtualized grid that redraws its rows when the list changes (a search's results, a refetch
 * after a change), and a dialog inside a card would close with it, losing what it showed (a
 * one-time reset link) and its answer. The member shown is the list's latest copy, or the one
 * last seen when the list no longer holds them (a filter that a change made them leave).
 */
export function useManagedMember(members: readonly Member[] | undefined) {
  const [opened, setOpened] = useState<Member | null>(null);
  const latest = opened && members?.find((member) => member._id === opened._id);
  // The latest copy is remembered (React's "state from the previous render" pattern), so the
  // dialog still shows it if the list then drops the member.
  if (latest && latest !== opened) setOpened(latest);
  return {
    member: latest ?? opened,
    manage: setOpened,
    close: () => setOpened(null),
  };
}

/**
 * The admin's actions on one person: role, deactivation, a password reset link and deletion.
 * Each answer (say "the last active admin cannot be demoted") shows in the dialog itself.
 * Rendered once per page (see `useManagedMember`); `member` null means closed.
 */
export function ManageMemberDialog({
  member,
  onClose,
}: {
  member: Member | null;
  onClose: () => void;
}) {
  const t = useT();
  return (
    <Modal
      open={member !== null}
      title={member ? t('team.manage', { name: member.name }) : ''}
      onClose={onClose}
    >
      {/* A fresh body per member: what one showed (an error, a link) never shows for another. */}
      {member && <MemberDialogBody key={member._id} member={member} onClose={onClose} />}
    </Modal>
  );
}

function MemberDialogBody({ member, onClose }: { member: Member; onClose: () => void }) {
  const [step, setStep] = useState<Step>('menu');
  const [error, setError] = useState<string | null>(null);
  const [link, setLink] = useState<string | null>(null);
  const change = useChangeMember();
  const resetLink = useCreateResetLink();
  const { user: me } = useSession();
  const t = useT();

  function apply(patch: MemberChange, done: string) {
    setError(null);
    change.mutate(
      { id: member._id, change: patch },
      {
        onSuccess: () => {
          notify('success', done);
          onClose();
        },
        onError: (failure) => setError(errorMessage(failure, t('team.changeFailed'))),
      },
    );
  }

  function makeLink() {
    setError(null);
    resetLink.mutate(member._id, {
      onSuccess: (url) => {
        setLink(new URL(url, window.location.origin).href);
        setStep('link');
      },
      onError: (failure) => setError(errorMessage(failure, t('team.linkFailed'))),
    });
  }

  const deactivated = isDeactivated(member);
  const busy = change.isPending || resetLink.isPending;
  return (
    <>
      {step === 'menu' && (
        <div className="flex flex-col gap-3">
          <p className="text-sm text-slate-700">
            {member.email} · {member.role === 'admin' ? t('common.admin') : t('common.member')}
            {deactivated && ` · ${t('common.deactivated')}`}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="secondary"
              disabled={busy}
              onClick={() =>
                member.role === 'admin'
                  ? apply({ role: 'member' }, t('team.nowMember', { name: member.name }))
                  : apply({ role: 'admin' }, t('team.nowAdmin', { name: member.name }))
              }
            >
              {member.role === 'admin' ? t('team.makeMember') : t('team.makeAdmin')}
            </Button>
            <Button
              variant="secondary"
              disabled={busy || member._id === me?._id}
              onClick={() =>
                deactivated
                  ? apply({ active: true }, t('team.reactivated', { name: member.name }))
                  : setStep('deactivate')
              }
            >
              {deactivated ? t('team.reactivate') : t('team.deactivate')}
            </Button>
            <Button variant="secondary" disabled={busy} onClick={makeLink}>
              {t('team.createResetLink')}
            </Button>
            <Button
              variant="danger"
              disabled={busy || member._id === me?._id}
              onClick={() => setStep('delete')}
            >
              {t('team.deleteMenu')}
            </Button>
          </div>
          <FormError message={error} />
        </div>
      )}
      {step === 'link' && link && <ResetLink member={member} link={link} />}
      {step === 'deactivate' && <DeactivateMember member={member} onDone={onClose} />}
      {step === 'delete' && <DeleteMember member={member} onDone={onClose} />}
    </>
  );
}

function ResetLink({ member, link }: { member: Member; link: string }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-700">{t('team.handOver', { name: member.name })}</p>
      <CopyField
        label={t('team.resetLink')}
        value={link}
        copiedText={t('team.linkCopied')}
        failedText={t('team.linkCopyFailed')}
      />
    </div>
  );
}

/**
 * What becomes of someone's tasks as they leave: kept without them, or handed to another active
 * person. Someone with tasks starts on the handover, so one click does not leave their tasks with
 * no one working on them.
 */
function useHandover(member: Member, tasks: number) {
  const [mode, setMode] = useState<'reassign' | 'keep'>(tasks > 0 ? 'reassign' : 'keep');
  const [target, setTarget] = useState('');
  const { users } = useUsers('', { active: true });
  const choices = (users ?? []).filter((user) => user._id !== member._id);
  return {
    mode,
    setMode,
    target,
    setTarget,
    choices,
    /** The chosen heir's id, `null` to keep, or `undefined` while one must still be chosen. */
    heir: mode === 'keep' ? null : target || undefined,
  };
}

function HandoverChoice({
  handover,
  legend,
  keepLabel,
}: {
  handover: ReturnType<typeof useHandover>;
  legend: string;
  keepLabel: string;
}) {
  const selectId = useId();
  const t = useT();
  const { mode, setMode, target, setTarget, choices } = handover;
  return (
    <>
      <fieldset className="flex flex-col gap-2 text-sm text-slate-800">
        <legend className="mb-1 font-medium">{legend}</legend>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="tasks"
            checked={mode === 'keep'}
            onChange={() => setMode('keep')}
          />
          {keepLabel}
        </label>
        <label className="flex items-center gap-2">
          <input
            type="radio"
            name="tasks"
            checked={mode === 'reassign'}
            onChange={() => setMode('reassign')}
          />
          {t('team.reassign')}
        </label>
      </fieldset>
      {mode === 'reassign' && (
        <div className="flex flex-col gap-1">
          <label htmlFor={selectId} className="text-sm font-medium text-slate-700">
            {t('team.reassignTo')}
          </label>
          <select
            id={selectId}
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900"
          >
            <option value="">{t('team.choosePerson')}</option>
            {choices.map((user) => (
              <option key={user._id} value={user._id}>
                {user.name} ({user.email})
              </option>
            ))}
          </select>
        </div>
      )}
    </>
  );
}

/**
 * One leaving step (deactivation or deletion): the question, who takes the person's tasks (when
 * `showChoice`), the button. `send` makes the change with the chosen heir (`null`: keep) and
 * answers what to say once it is made; a refusal shows in the dialog.
 */
function LeavingStep({
  member,
  tasks,
  showChoice,
  question,
  legend,
  keepLabel,
  action,
  failedText,
  send,
  onDone,
}: {
  member: Member;
  tasks: number;
  showChoice: boolean;
  question: string;
  legend: string;
  keepLabel: string;
  action: string;
  failedText: string;
  send: (heir: string | null, heirName: string | undefined) => Promise<string>;
  onDone: () => void;
}) {
  const handover = useHandover(member, tasks);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const t = useT();

  function submit() {
    const { heir } = handover;
    if (heir === undefined) {
      setError(t('team.chooseTakeover'));
      return;
    }
    setError(null);
    setPending(true);
    const heirName = heir ? handover.choices.find((user) => user._id === heir)?.name : undefined;
    send(heir, heirName).then(
      (done) => {
        notify('success', done);
        onDone();
      },
      (failure: unknown) => {
        setPending(false);
        setError(errorMessage(failure, failedText));
      },
    );
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-800">{question}</p>
      {showChoice && <HandoverChoice handover={handover} legend={legend} keepLabel={keepLabel} />}
      <FormError message={error} />
      <div className="flex justify-end gap-2">
        <Button variant="danger" disabled={pending} onClick={submit}>
          {action}
        </Button>
      </div>
    </div>
  );
}

/**
 * Deactivating asks first: the person is signed out at once and cannot sign in again. Their
 * open tasks can be handed over in the same step (finished ones stay theirs).
 */
function DeactivateMember({ member, onDone }: { member: Member; onDone: () => void }) {
  const open = openTaskCountOf(member);
  const change = useChangeMember();
  const t = useT();
  return (
    <LeavingStep
      member={member}
      tasks={open}
      showChoice={open > 0}
      question={`${t('team.deactivateQuestion', { name: member.name })} ${t('team.openTasks', { count: open })}`}
      legend={t('team.theirOpenTasks')}
      keepLabel={t('team.keepWith', { name: member.name })}
      action={t('team.deactivateNamed', { name: member.name })}
      failedText={t('team.changeFailed')}
      send={async (heir, heirName) => {
        await change.mutateAsync({
          id: member._id,
          change: { active: false, ...(heir && { reassignTo: heir }) },
        });
        return heirName
          ? t('team.handedOver', { name: member.name, to: heirName })
          : t('team.deactivated', { name: member.name });
      }}
      onDone={onDone}
    />
  );
}

function DeleteMember({ member, onDone }: { member: Member; onDone: () => void }) {
  const tasks = taskCountOf(member);
  const remove = useDeleteMember();
  const t = useT();
  return (
    <LeavingStep
      member={member}
      tasks={tasks}
      showChoice
      question={t('team.deleteQuestion', { name: member.name, count: tasks })}
      legend={t('team.theirTasks')}
      keepLabel={t('team.leaveUnassigned', { name: member.name })}
      action={t('team.deleteNamed', { name: member.name })}
      failedText={t('team.deleteFailed')}
      send={async (heir) => {
        await remove.mutateAsync({ id: member._id, reassignTo: heir });
        return t('team.deleted', { name: member.name });
      }}
      onDone={onDone}
    />
  );
}
