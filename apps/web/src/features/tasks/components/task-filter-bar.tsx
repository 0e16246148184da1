import {
  TASK_DUE_FILTERS,
  TASK_PRIORITIES,
  TASK_SEARCH_MAX,
  TASK_SORTS,
  type TaskPriority,
} from '@task-manager/shared';
import { ArrowDownWideNarrow, ArrowUpNarrowWide, Search, X } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { useLabels } from '../../../lib/get-labels';
import { useUsers } from '../../../lib/get-users';
import { useT } from '../../../lib/i18n';
import { DUE_LABELS, SORT_LABELS, isFiltered, type TaskFilters } from '../task-filters';

/** The search box asks the server once typing pauses this long, not on every key. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The order each sort lists in when none is chosen (as the API does). */
const DEFAULT_ORDER = {
  createdAt: 'desc',
  updatedAt: 'desc',
  dueDate: 'asc',
  priority: 'desc',
  title: 'asc',
} as const;

const PRIORITY_LABELS = {
  Low: 'filters.low',
  Medium: 'filters.medium',
  High: 'filters.high',
} as const satisfies Record<TaskPriority, string>;

const selectClass = `${inputClass} w-auto min-w-[9rem]`;

/**
 * Search (debounced), assignee (admins), priority, due, labels and sort over a task list. Every
 * change goes to `onChange`, which writes it into the URL.
 */
export function TaskFilterBar({
  filters,
  onChange,
  showAssignee,
}: {
  filters: TaskFilters;
  onChange: (change: Partial<TaskFilters>) => void;
  showAssignee: boolean;
}) {
  const t = useT();
  const ids = { search: useId(), assignee: useId(), due: useId(), sort: useId() };
  const order = filters.order || DEFAULT_ORDER[filters.sort];

  return (
    <div role="search" aria-label={t('filters.label')} className="flex flex-wrap items-end gap-3">
      <SearchBox value={filters.q} onSearch={(q) => onChange({ q })} id={ids.search} />
      {showAssignee && (
        <AssigneeSelect
          id={ids.assignee}
          value={filters.assignee}
          onChange={(assignee) => onChange({ assignee })}
        />
      )}
      <PriorityChoice value={filters.priority} onChange={(priority) => onChange({ priority })} />
      <div className="flex flex-col gap-1">
        <label htmlFor={ids.due} className="text-sm font-medium text-slate-700">
          {t('filters.due')}
        </label>
        <select
          id={ids.due}
          value={filters.due}
          onChange={(event) => onChange({ due: event.target.value as TaskFilters['due'] })}
          className={selectClass}
        >
          <option value="">{t('filters.anyTime')}</option>
          {TASK_DUE_FILTERS.map((due) => (
            <option key={due} value={due}>
              {t(DUE_LABELS[due])}
            </option>
          ))}
        </select>
      </div>
      <LabelChoice value={filters.label} onChange={(label) => onChange({ label })} />
      <div className="flex flex-col gap-1">
        <label htmlFor={ids.sort} className="text-sm font-medium text-slate-700">
          {t('filters.sortBy')}
        </label>
        <div className="flex gap-1">
          <select
            id={ids.sort}
            value={filters.sort}
            onChange={(event) =>
              onChange({ sort: event.target.value as TaskFilters['sort'], order: '' })
            }
            className={selectClass}
          >
            {TASK_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {t(SORT_LABELS[sort])}
              </option>
            ))}
          </select>
          <Button
            variant="secondary"
            aria-label={order === 'asc' ? t('filters.ascending') : t('filters.descending')}
            title={order === 'asc' ? t('filters.ascendingHint') : t('filters.descendingHint')}
            onClick={() => onChange({ order: order === 'asc' ? 'desc' : 'asc' })}
          >
            {order === 'asc' ? (
              <ArrowUpNarrowWide size={16} aria-hidden />
            ) : (
              <ArrowDownWideNarrow size={16} aria-hidden />
            )}
          </Button>
        </div>
      </div>
      {isFiltered(filters) && (
        <Button
          variant="secondary"
          onClick={() => onChange({ q: '', assignee: '', priority: [], label: [], due: '' })}
        >
          <X size={16} aria-hidden />
          {t('filters.clear')}
        </Button>
      )}
    </div>
  );
}

/** What is typed shows at once; the list follows once typing pauses. */
function SearchBox({
  value,
  onSearch,
  id,
}: {
  value: string;
  onSearch: (q: string) => void;
  id: string;
}) {
  const t = useT();
  const [text, setText] = useState(value);
  // The URL's words the box last showed or sent: when the URL changes without typing (back
  // button, a link, Clear filters), the box shows its words.
  const [synced, setSynced] = useState(value);
  if (value !== synced) {
    setSynced(value);
    setText(value);
  }
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  // The timer sends through the latest render's onSearch and words: one captured at the
  // keystroke would write the URL as it was then, undoing a filter chosen while it waited.
  const latest = useRef({ onSearch, synced });
  useLayoutEffect(() => {
    latest.current = { onSearch, synced };
  });

  function type(next: string) {
    setText(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (next.trim() === latest.current.synced) return;
      setSynced(next.trim());
      latest.current.onSearch(next);
    }, SEARCH_DEBOUNCE_MS);
  }

  return (
    <div className="flex min-w-[14rem] flex-1 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {t('filters.search')}
      </label>
      <div className="relative">
        <Search
          size={16}
          aria-hidden
          className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-500"
        />
        <input
          id={id}
          type="search"
          placeholder={t('filters.searchPlaceholder')}
          maxLength={TASK_SEARCH_MAX}
          value={text}
          onChange={(event) => type(event.target.value)}
          className={`${inputClass} pl-9`}
        />
      </div>
    </div>
  );
}

function AssigneeSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (assignee: string) => void;
}) {
  const t = useT();
  const { users } = useUsers('', { active: true });
  const known = value === '' || value === 'me' || users?.some((user) => user._id === value);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {t('filters.assignee')}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className={selectClass}
      >
        <option value="">{t('filters.everyone')}</option>
        <option value="me">{t('filters.me')}</option>
        {!known && <option value={value}>{t('filters.chosenPerson')}</option>}
        {users?.map((user) => (
          <option key={user._id} value={user._id}>
            {user.name}
          </option>
        ))}
      </select>
    </div>
  );
}

const toggleClass = (on: boolean) =>
  `cursor-pointer rounded-full border px-3 py-1.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700 ${
    on
      ? 'border-blue-700 bg-blue-50 font-medium text-blue-800'
      : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'
  }`;

function toggled<T>(list: readonly T[], value: T): T[] {
  return list.includes(value) ? list.filter((entry) => entry !== value) : [...list, value];
}

function PriorityChoice({
  value,
  onChange,
}: {
  value: TaskPriority[];
  onChange: (priority: TaskPriority[]) => void;
}) {
  const t = useT();
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-slate-700">{t('filters.priority')}</legend>
      <div className="flex gap-1">
        {TASK_PRIORITIES.map((priority) => {
          const on = value.includes(priority);
          return (
            <label key={priority} className={toggleClass(on)}>
              <input
                type="checkbox"
                className="sr-only"
                checked={on}
                onChange={() => onChange(toggled(value, priority))}
              />
              {t(PRIORITY_LABELS[priority])}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function LabelChoice({
  value,
  onChange,
}: {
  value: string[];
  onChange: (labels: string[]) => void;
}) {
  const t = useT();
  const labels = useLabels();
  if (!labels.data || labels.data.length === 0) return null;
  return (
    <fieldset className="flex max-w-full flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-slate-700">{t('ui.labels')}</legend>
      <div className="flex flex-wrap gap-1">
        {labels.data.map((label) => {
          const on = value.includes(label._id);
          return (
            <label
              key={label._id}
              className={`${toggleClass(on)} inline-flex items-center gap-1.5`}
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={on}
                onChange={() => onChange(toggled(value, label._id))}
              />
              <span
                aria-hidden
                className="h-2.5 w-2.5 rounded-full"
                style={{ background: label.color }}
              />
              {label.name}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
