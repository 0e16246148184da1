import type { Task } from '@task-manager/shared';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { CalendarPlus, ChevronLeft, ChevronRight } from 'lucide-react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '../../../components/ui/button';
import { ErrorState, Spinner } from '../../../components/ui/feedback';
import { paths, taskPathFor } from '../../../config/paths';
import { dueStateOf } from '../../../lib/due-state';
import { formatCalendarDay, formatMonth, weekdayNames } from '../../../lib/format';
import { useT } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { useMonthTasks } from '../api/get-month-tasks';

dayjs.extend(utc);

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The month the URL asks for (`?month=YYYY-MM`), this month otherwise. */
function monthOf(value: string | null): dayjs.Dayjs {
  const today = dayjs();
  const month = value && MONTH.test(value) ? value : today.format('YYYY-MM');
  return dayjs.utc(`${month}-01`);
}

/** The weeks (Monday first) that show the month, each a list of 7 UTC days. */
function weeksOf(start: dayjs.Dayjs): dayjs.Dayjs[][] {
  const first = start.subtract((start.day() + 6) % 7, 'day');
  const weeks: dayjs.Dayjs[][] = [];
  for (let day = first; day.isBefore(start.add(1, 'month')); day = day.add(7, 'day')) {
    weeks.push(Array.from({ length: 7 }, (_, index) => day.add(index, 'day')));
  }
  return weeks;
}

/**
 * /admin/calendar and /user/calendar: a month of tasks by due date (due dates are calendar
 * days), overdue ones in red; a task opens its page. The month lives in the URL.
 */
export function CalendarPage() {
  const t = useT();
  const { user } = useSession();
  const [searchParams, setSearchParams] = useSearchParams();
  const start = monthOf(searchParams.get('month'));
  const month = start.format('YYYY-MM');
  const weeks = weeksOf(start);
  // Every day the grid shows, its neighbouring months' days too: a task due on the 1st of next
  // month shows in the last row as it does on the next month's page.
  const gridStart = weeks[0]![0]!;
  const gridEnd = weeks.at(-1)![6]!.add(1, 'day');
  const query = useMonthTasks(month, gridStart.toISOString(), gridEnd.toISOString());

  const byDay = new Map<string, Task[]>();
  for (const task of query.data?.tasks ?? []) {
    const day = dayjs.utc(task.dueDate).format('YYYY-MM-DD');
    byDay.set(day, [...(byDay.get(day) ?? []), task]);
  }
  const today = dayjs().format('YYYY-MM-DD');
  const go = (to: dayjs.Dayjs) => setSearchParams({ month: to.format('YYYY-MM') });

  return (
    <section aria-labelledby="calendar-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="calendar-heading" className="text-xl font-semibold text-slate-900">
          {t('calendar.heading', { month: formatMonth(start.toDate()) })}
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          <Link
            to={{ pathname: paths.profile, hash: '#profile-calendar' }}
            className="inline-flex items-center gap-1.5 rounded-md px-2 py-2 text-sm font-medium text-blue-700 underline"
          >
            <CalendarPlus size={16} aria-hidden />
            {t('calendar.subscribe')}
          </Link>
          <Button variant="secondary" onClick={() => go(start.subtract(1, 'month'))}>
            <ChevronLeft size={16} aria-hidden />
            {t('calendar.previousMonth')}
          </Button>
          <Button variant="secondary" onClick={() => go(dayjs.utc())}>
            {t('calendar.today')}
          </Button>
          <Button variant="secondary" onClick={() => go(start.add(1, 'month'))}>
            {t('calendar.nextMonth')}
            <ChevronRight size={16} aria-hidden />
          </Button>
        </div>
      </div>
      {query.isError ? (
        <ErrorState message={t('calendar.loadFailed')} onRetry={() => void query.refetch()} />
      ) : !query.data ? (
        <Spinner label={t('calendar.loading')} />
      ) : (
        <>
          {query.data.truncated && (
            <p className="text-sm text-slate-700">{t('calendar.truncated')}</p>
          )}
          {/* A phone: the month's days with tasks as a list, instead of a grid to scroll. */}
          <MonthAgenda
            days={weeks.flat().filter((day) => day.month() === start.month())}
            byDay={byDay}
            today={today}
            hrefFor={(task) => taskPathFor(user?.role, task._id)}
          />
          <div
            role="region"
            aria-label={t('calendar.month')}
            tabIndex={0}
            className="relative hidden overflow-x-auto rounded-lg border border-slate-200 bg-white md:block"
          >
            <table className="w-full min-w-[48rem] table-fixed border-collapse text-sm">
              <thead>
                <tr>
                  {weekdayNames().map((weekday) => (
                    <th
                      key={weekday}
                      scope="col"
                      className="border-b border-slate-200 px-2 py-2 text-left font-medium text-slate-700"
                    >
                      {weekday}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {weeks.map((week) => (
                  <tr key={week[0]!.format('YYYY-MM-DD')}>
                    {week.map((day) => {
                      const key = day.format('YYYY-MM-DD');
                      const inMonth = day.month() === start.month();
                      const tasks = byDay.get(key) ?? [];
                      return (
                        <td
                          key={key}
                          aria-label={formatCalendarDay(day.toDate())}
                          className={`h-28 border border-slate-200 p-1.5 align-top ${
                            inMonth ? '' : 'bg-slate-50'
                          }`}
                        >
                          <span
                            className={`mb-1 inline-block rounded-full px-1.5 text-xs ${
                              key === today
                                ? 'bg-blue-700 font-semibold text-white'
                                : inMonth
                                  ? 'text-slate-800'
                                  : 'text-slate-500'
                            }`}
                          >
                            {day.date()}
                          </span>
                          <ul className="flex flex-col gap-1">
                            {tasks.map((task) => (
                              <CalendarEntry
                                key={task._id}
                                task={task}
                                href={taskPathFor(user?.role, task._id)}
                              />
                            ))}
                          </ul>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

/** The month's days that have tasks, in order, each with its tasks: the calendar below md. */
function MonthAgenda({
  days,
  byDay,
  today,
  hrefFor,
}: {
  days: dayjs.Dayjs[];
  byDay: ReadonlyMap<string, Task[]>;
  today: string;
  hrefFor: (task: Task) => string;
}) {
  const t = useT();
  const busy = days.filter((day) => byDay.has(day.format('YYYY-MM-DD')));
  return (
    <section aria-label={t('calendar.agenda')} className="md:hidden">
      {busy.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-700">
          {t('calendar.nothingDue')}
        </p>
      ) : (
        <ol className="flex flex-col gap-3">
          {busy.map((day) => {
            const key = day.format('YYYY-MM-DD');
            return (
              <li key={key} className="rounded-lg border border-slate-200 bg-white p-3">
                <h2 className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-900">
                  {formatCalendarDay(day.toDate())}
                  {key === today && (
                    <span className="rounded-full bg-blue-700 px-2 py-0.5 text-xs text-white">
                      {t('calendar.today')}
                    </span>
                  )}
                </h2>
                <ul className="flex flex-col gap-1">
                  {(byDay.get(key) ?? []).map((task) => (
                    <CalendarEntry key={task._id} task={task} href={hrefFor(task)} />
                  ))}
                </ul>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function CalendarEntry({ task, href }: { task: Task; href: string }) {
  const t = useT();
  const state = dueStateOf(task);
  const colours =
    state === 'overdue'
      ? 'border-red-300 bg-red-50 text-red-800'
      : task.status === 'Completed'
        ? 'border-slate-200 bg-slate-50 text-slate-600 line-through'
        : 'border-blue-200 bg-blue-50 text-blue-900';
  return (
    <li>
      <Link
        to={href}
        data-due={state}
        title={task.title}
        className={`block truncate rounded border px-1.5 py-0.5 text-xs hover:underline ${colours}`}
      >
        {task.title}
        {state === 'overdue' && <span className="sr-only"> {t('calendar.overdue')}</span>}
      </Link>
    </li>
  );
}
