import { TASK_SEARCH_MAX } from '@task-manager/shared';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { useNavigate } from 'react-router-dom';
import { useStatusName } from '../../../components/ui/badges';
import { paths, taskPathFor } from '../../../config/paths';
import { useT } from '../../../lib/i18n';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { mayLeaveChangedForms } from '../../../lib/back-button-guard';
import { useTaskSearch } from '../api/search-tasks';

interface Command {
  id: string;
  label: string;
  hint: string;
  to: string;
}

type PageName =
  | 'dashboard'
  | 'manageTasks'
  | 'createTask'
  | 'board'
  | 'calendar'
  | 'labels'
  | 'teamMembers'
  | 'settings'
  | 'overdueTasks'
  | 'profile'
  | 'myTasks';

const ADMIN_PAGES: [PageName, string][] = [
  ['dashboard', paths.admin.dashboard],
  ['manageTasks', paths.admin.tasks],
  ['createTask', paths.admin.createTask],
  ['board', paths.admin.board],
  ['calendar', paths.admin.calendar],
  ['labels', paths.admin.labels],
  ['teamMembers', paths.admin.users],
  ['settings', paths.admin.settings],
  ['overdueTasks', `${paths.admin.tasks}?due=overdue`],
  ['profile', paths.profile],
];

const MEMBER_PAGES: [PageName, string][] = [
  ['dashboard', paths.user.dashboard],
  ['myTasks', paths.user.tasks],
  ['board', paths.user.board],
  ['calendar', paths.user.calendar],
  ['overdueTasks', `${paths.user.tasks}?due=overdue`],
  ['profile', paths.profile],
];

export function Palette({ role, onClose }: { role: string; onClose: () => void }) {
  const t = useT();
  const statusName = useStatusName();
  const navigate = useNavigate();
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const q = useDebouncedValue(text.trim(), 200);
  const search = useTaskSearch(q);
  const listId = useId();
  const titleId = useId();

  // What had focus when the palette opened gets it back when the palette is dismissed
  // (Escape, a click outside, the shortcut again); not after a command, which opens a page.
  const opener = useRef<Element | null>(document.activeElement);
  const restoreFocus = useRef(true);
  // A layout effect: its cleanup runs while the dialog is still in the page, so it closes there.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    const before = opener.current;
    return () => {
      element?.close();
      if (restoreFocus.current && before instanceof HTMLElement && before.isConnected) {
        before.focus();
      }
    };
  }, []);

  // The task answer is for the words typed now (not a previous search's, which the query keeps
  // on screen while the next loads): only it is offered, and Enter waits for it.
  const trimmed = text.trim();
  const answerIsCurrent = q !== '' && q === trimmed && !search.isPlaceholderData;

  const commands = useMemo(() => {
    const words = trimmed.toLowerCase();
    const pages = (role === 'admin' ? ADMIN_PAGES : MEMBER_PAGES)
      .map(([name, to]) => [t(`palette.${name}`), to] as const)
      .filter(([label]) => label.toLowerCase().includes(words))
      .map(([label, to]): Command => ({ id: `page-${to}`, label, hint: t('palette.page'), to }));
    const tasks = answerIsCurrent
      ? (search.data ?? []).map((task): Command => ({
          id: `task-${task._id}`,
          label: task.title,
          hint: t('palette.task', { status: statusName(task.status) }),
          to: taskPathFor(role, task._id),
        }))
      : [];
    return [...tasks, ...pages];
  }, [trimmed, answerIsCurrent, role, search.data, t, statusName]);
  const current = Math.min(active, Math.max(commands.length - 1, 0));

  // Enter before the tasks for what is typed are in waits for them, then opens the choice.
  const tasksSettled =
    trimmed === '' || search.isError || (answerIsCurrent && search.data !== undefined);
  const enterPending = useRef(false);

  function go(command: Command | undefined) {
    if (!command) return;
    // A form with unsaved changes asks first, as a link does; staying keeps the palette open.
    if (!mayLeaveChangedForms()) return;
    restoreFocus.current = false;
    onClose();
    void navigate(command.to);
  }

  // After every render: the one that brings the tasks opens the choice (go closes the palette).
  useEffect(() => {
    if (!enterPending.current || !tasksSettled) return;
    enterPending.current = false;
    go(commands[current]);
  });

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + commands.length) % Math.max(commands.length, 1));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (tasksSettled) go(commands[current]);
      else enterPending.current = true;
    }
  }

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className="mx-auto mt-[12vh] w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <h2 id={titleId} className="sr-only">
        {t('palette.title')}
      </h2>
      <input
        autoFocus
        role="combobox"
        aria-label={t('palette.search')}
        aria-expanded={commands.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={commands[current] ? `${listId}-${current}` : undefined}
        placeholder={t('palette.placeholder')}
        maxLength={TASK_SEARCH_MAX}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setActive(0);
          enterPending.current = false;
        }}
        onKeyDown={onKeyDown}
        className="w-full border-b border-slate-200 px-4 py-3 text-base text-slate-900 outline-none placeholder:text-slate-500"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={t('palette.results')}
        className="max-h-80 overflow-y-auto py-1"
      >
        {commands.map((command, index) => (
          <li
            key={command.id}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === current}
            onMouseEnter={() => setActive(index)}
            onClick={() => go(command)}
            className={`flex cursor-pointer items-center justify-between gap-3 px-4 py-2 text-sm ${
              index === current ? 'bg-blue-50 text-blue-900' : 'text-slate-800'
            }`}
          >
            <span className="truncate">{command.label}</span>
            <span className="shrink-0 text-xs text-slate-600">{command.hint}</span>
          </li>
        ))}
        {commands.length === 0 && (
          <li
            role="option"
            aria-selected={false}
            aria-disabled
            className="px-4 py-2 text-sm text-slate-600"
          >
            {search.isFetching ? t('palette.searching') : t('palette.nothing')}
          </li>
        )}
      </ul>
    </dialog>
  );
}
