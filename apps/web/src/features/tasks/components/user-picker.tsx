import { Users } from 'lucide-react';
import { useId, useState } from 'react';
import { Avatar, AvatarStack } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { ErrorState, Skeleton } from '../../../components/ui/feedback';
import { Modal } from '../../../components/ui/modal';
import type { AssigneeOption } from '../task-form-rules';

/**
 * Assigned To: an Add Members button opens the Select Users modal. Ticks are a draft: Done applies
 * them, Cancel (or Escape, or the close button) leaves the chosen people as they were.
 */
export function UserPicker({
  users,
  loading,
  failed,
  onRetry,
  selected,
  onChange,
}: {
  users: readonly AssigneeOption[];
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  selected: readonly AssigneeOption[];
  onChange: (people: AssigneeOption[]) => void;
}) {
  const [open, setOpen] = useState(false);
  // Someone assigned who is not in the member list (an admin) is listed too, to be unticked.
  const listed = new Set(users.map((person) => person._id));
  const choices = [...users, ...selected.filter((person) => !listed.has(person._id))];
  const [draft, setDraft] = useState<ReadonlySet<string>>(new Set());

  function openPicker() {
    setDraft(new Set(selected.map((person) => person._id)));
    setOpen(true);
  }

  function toggle(id: string) {
    setDraft((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  function apply() {
    const kept = selected.filter((person) => draft.has(person._id));
    const keptIds = new Set(kept.map((person) => person._id));
    const added = users.filter((person) => draft.has(person._id) && !keptIds.has(person._id));
    onChange([...kept, ...added]);
    setOpen(false);
  }

  return (
    <>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium text-slate-700">Assigned To</legend>
        <div className="flex flex-wrap items-center gap-3">
          {selected.length > 0 && <AvatarStack people={selected} max={3} />}
          <Button variant="secondary" onClick={openPicker}>
            <Users size={16} aria-hidden />
            Add Members
          </Button>
        </div>
      </fieldset>
      <Modal
        open={open}
        title="Select Users"
        onClose={() => setOpen(false)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button onClick={apply}>Done</Button>
          </>
        }
      >
        <div className="h-[60vh] overflow-y-auto">
          <UserChoices
            users={choices}
            loading={loading}
            failed={failed}
            onRetry={onRetry}
            chosen={draft}
            onToggle={toggle}
          />
        </div>
      </Modal>
    </>
  );
}

function UserChoices({
  users,
  loading,
  failed,
  onRetry,
  chosen,
  onToggle,
}: {
  users: readonly AssigneeOption[];
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  chosen: ReadonlySet<string>;
  onToggle: (id: string) => void;
}) {
  const idPrefix = useId();
  if (loading) {
    return (
      <div className="flex flex-col gap-3">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} className="h-12" />
        ))}
      </div>
    );
  }
  if (failed) return <ErrorState message="Failed to load users." onRetry={onRetry} />;
  if (users.length === 0) return <p className="text-sm text-slate-600">No team members yet</p>;
  return (
    <ul className="flex flex-col divide-y divide-slate-200">
      {users.map((user) => {
        const nameId = `${idPrefix}-${user._id}`;
        return (
          <li key={user._id}>
            {/* The whole row is the click target; the checkbox is named by the name alone. */}
            <label className="flex cursor-pointer items-center gap-3 py-3">
              <Avatar person={user} size={36} />
              <span className="min-w-0 flex-1">
                <span id={nameId} className="block truncate text-sm font-medium text-slate-900">
                  {user.name}
                </span>
                <span className="block truncate text-xs text-slate-600">{user.email}</span>
              </span>
              <input
                type="checkbox"
                aria-labelledby={nameId}
                checked={chosen.has(user._id)}
                onChange={() => onToggle(user._id)}
                className="h-4 w-4 shrink-0 accent-blue-700"
              />
            </label>
          </li>
        );
      })}
    </ul>
  );
}
