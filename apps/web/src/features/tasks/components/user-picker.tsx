import { Search, Users } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Avatar, AvatarStack } from '../../../components/ui/avatar';
import { Button } from '../../../components/ui/button';
import { ErrorState, Skeleton } from '../../../components/ui/feedback';
import { inputClass } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { useT } from '../../../lib/i18n';
import type { Paging } from '../../../lib/infinite-paging';
import type { AssigneeOption } from '../task-form-rules';

/** What the picker offers: the members matching a search, page by page. */
export interface UserChoices {
  /** The members matching `search` (all when empty), as far as loaded. */
  users: readonly AssigneeOption[];
  /** Nothing has loaded yet. */
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
  search: string;
  onSearch: (text: string) => void;
  /** The users shown are still the previous search's. */
  searching: boolean;
  paging: Paging;
}

/** The next page is asked for when the list is scrolled this close to its end. */
const LOAD_MORE_WITHIN_PX = 200;

/**
 * Assigned To: an Add Members button opens the Select Users modal, with a search box over the
 * members (more load as the list scrolls). Ticks are a draft: Done applies them, Cancel (or
 * Escape, or the close button) leaves the chosen people as they were. The draft keeps whole
 * people, not ids, so someone ticked before the search changed stays ticked, and is shown.
 */
export function UserPicker({
  selected,
  onChange,
  ...choices
}: UserChoices & {
  selected: readonly AssigneeOption[];
  onChange: (people: AssigneeOption[]) => void;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<ReadonlyMap<string, AssigneeOption>>(new Map());
  // Everyone ticked since the picker opened: listed apart while the search does not show them.
  const [remembered, setRemembered] = useState<readonly AssigneeOption[]>([]);

  function openPicker() {
    setDraft(new Map(selected.map((person) => [person._id, person])));
    setRemembered(selected);
    choices.onSearch('');
    setOpen(true);
  }

  function toggle(person: AssigneeOption) {
    setDraft((current) => {
      const next = new Map(current);
      if (next.has(person._id)) next.delete(person._id);
      else next.set(person._id, person);
      return next;
    });
    setRemembered((current) =>
      current.some((known) => known._id === person._id) ? current : [...current, person],
    );
  }

  function apply() {
    onChange([...draft.values()]);
    setOpen(false);
  }

  const shown = new Set(choices.users.map((person) => person._id));
  const elsewhere = remembered.filter((person) => !shown.has(person._id));

  return (
    <>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium text-slate-700">{t('tasks.assignedTo')}</legend>
        <div className="flex flex-wrap items-center gap-3">
          {selected.length > 0 && <AvatarStack people={selected} max={3} />}
          <Button variant="secondary" onClick={openPicker}>
            <Users size={16} aria-hidden />
            {t('tasks.addMembers')}
          </Button>
        </div>
      </fieldset>
      <Modal
        open={open}
        title={t('tasks.selectUsers')}
        onClose={() => setOpen(false)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={apply}>{t('tasks.done')}</Button>
          </>
        }
      >
        <UserSearch search={choices.search} onSearch={choices.onSearch} chosen={draft.size} />
        <ChoicesBox {...choices}>
          {elsewhere.length > 0 && (
            <PeopleList
              label={t('tasks.selected')}
              showLabel
              people={elsewhere}
              chosen={draft}
              onToggle={toggle}
            />
          )}
          <Results {...choices} chosen={draft} onToggle={toggle} />
        </ChoicesBox>
      </Modal>
    </>
  );
}

function UserSearch({
  search,
  onSearch,
  chosen,
}: {
  search: string;
  onSearch: (text: string) => void;
  chosen: number;
}) {
  const t = useT();
  // The box sits inside the task form: Enter here must not submit the task.
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') event.preventDefault();
  }
  return (
    <div className="mb-3 flex flex-col gap-2">
      <div className="relative">
        <Search
          size={16}
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-500"
        />
        <input
          // The HTML attribute, not React's autoFocus: showModal() moves focus to the element that
          // carries it, so the picker opens with the caret in its search box.
          ref={(input) => input?.setAttribute('autofocus', '')}
          type="search"
          aria-label={t('tasks.searchUsers')}
          placeholder={t('tasks.searchUsersPlaceholder')}
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          onKeyDown={onKeyDown}
          maxLength={100}
          className={`${inputClass} pl-9`}
        />
      </div>
      <p aria-live="polite" className="text-xs text-slate-600">
        {t('tasks.selectedCount', { number: chosen })}
      </p>
    </div>
  );
}

/** The scrolling box (60% of the viewport high): nearing its end loads the next page. */
function ChoicesBox({ searching, paging, children }: UserChoices & { children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const { canLoadMore, onLoadMore } = paging;

  function loadMoreIfNearEnd() {
    const element = box.current;
    if (!element || !canLoadMore) return;
    const left = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (left <= LOAD_MORE_WITHIN_PX) onLoadMore();
  }

  // A page too short to fill the box is never scrolled: check again after every change.
  useEffect(loadMoreIfNearEnd);

  return (
    <div
      ref={box}
      onScroll={loadMoreIfNearEnd}
      aria-busy={searching}
      className={`h-[60vh] overflow-y-auto transition-opacity ${searching ? 'opacity-60' : ''}`}
    >
      {children}
    </div>
  );
}

function Results({
  users,
  loading,
  failed,
  onRetry,
  search,
  paging,
  chosen,
  onToggle,
}: UserChoices & {
  chosen: ReadonlyMap<string, AssigneeOption>;
  onToggle: (person: AssigneeOption) => void;
}) {
  const t = useT();
  if (loading) {
    return (
      <div className="flex flex-col gap-3">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} className="h-12" />
        ))}
      </div>
    );
  }
  if (failed && users.length === 0) {
    return <ErrorState message={t('tasks.usersFailed')} onRetry={onRetry} />;
  }
  if (users.length === 0) {
    return (
      <p className="py-3 text-sm text-slate-600">
        {search.trim()
          ? t('tasks.noUsersMatch', { search: search.trim() })
          : t('tasks.noTeamMembers')}
      </p>
    );
  }
  return (
    <>
      <PeopleList label={t('tasks.users')} people={users} chosen={chosen} onToggle={onToggle} />
      {paging.loadMoreFailed ? (
        <div role="alert" className="flex items-center justify-center gap-3 py-3 text-sm">
          <span className="text-red-800">{t('tasks.moreUsersFailed')}</span>
          <Button variant="secondary" onClick={paging.onLoadMore}>
            {t('ui.retry')}
          </Button>
        </div>
      ) : (
        paging.loadingMore && (
          <p role="status" className="py-3 text-center text-sm text-slate-700">
            {t('tasks.loadingMoreUsers')}
          </p>
        )
      )}
    </>
  );
}

function PeopleList({
  label,
  showLabel = false,
  people,
  chosen,
  onToggle,
}: {
  label: string;
  showLabel?: boolean;
  people: readonly AssigneeOption[];
  chosen: ReadonlyMap<string, AssigneeOption>;
  onToggle: (person: AssigneeOption) => void;
}) {
  const idPrefix = useId();
  return (
    <>
      {showLabel && (
        <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{label}</h3>
      )}
      <ul aria-label={label} className="mb-2 flex flex-col divide-y divide-slate-200">
        {people.map((person) => {
          const nameId = `${idPrefix}-${person._id}`;
          return (
            <li key={person._id}>
              {/* The whole row is the click target; the checkbox is named by the name alone. */}
              <label className="flex cursor-pointer items-center gap-3 py-3">
                <Avatar person={person} size={36} />
                <span className="min-w-0 flex-1">
                  <span id={nameId} className="block truncate text-sm font-medium text-slate-900">
                    {person.name}
                  </span>
                  {person.email && (
                    <span className="block truncate text-xs text-slate-600">{person.email}</span>
                  )}
                </span>
                <input
                  type="checkbox"
                  aria-labelledby={nameId}
                  checked={chosen.has(person._id)}
                  onChange={() => onToggle(person)}
                  className="h-4 w-4 shrink-0 accent-blue-700"
                />
              </label>
            </li>
          );
        })}
      </ul>
    </>
  );
}
