import { sql, type Kysely, type RawBuilder } from 'kysely';
import { TASK_PRIORITIES, type TaskPriority, type TaskStatus } from '@task-manager/shared';
import { isPostgres } from '../db/database.js';
import type { Database } from '../db/tables.js';
import { VersionedMemo } from './versioned-memo.js';
import {
  earliestNextDue,
  OPEN_STATUSES,
  priorityRanks,
  priorityRank,
  type DueWindow,
  type TaskPageKey,
} from './search-filters.js';

/**
 * Full-text search over tasks (issue 22): every word of the query must match the start of a word
 * of the task's title, description, checklist texts or comments ("deplo" finds "deployment"), whatever
 * the case and accents. The index is each engine's own, kept in step by triggers (migrations
 * 2026-11-26-202-task-search and 401-search-comments): SQLite FTS5, PostgreSQL tsvector + GIN. Neither reads `tasks`.
 *
 * To search more text: add it to the `document` the migrations' triggers build, in a new
 * migration that also re-fills the index; nothing here changes.
 */

/** At most this many words are searched; more add nothing a person would notice. */
const MAX_WORDS = 16;

/**
 * The words of a query as the indexes hold them: accents taken off (Unicode NFD, combining marks
 * dropped), lower case, split on anything that is not a letter or a digit; duplicates dropped.
 */
export function searchWords(query: string): string[] {
  const folded = query
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  const words = folded.match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/**
 * The ids of the tasks matching every one of `words` (as `task_id`), read from the full-text
 * index alone. `words` come from searchWords: letters and digits only, so they need no escaping
 * in either engine's query syntax (they are bound as parameters all the same). On SQLite, only
 * those that `also` keeps too, checked on the full-text rows' keys before any task is read
 * (PostgreSQL's caller checks them on the tasks).
 */
export function matchingTaskIds(db: Kysely<Database>, words: string[], also: SearchAlso = {}) {
  if (isPostgres(db)) {
    const query = words.map((word) => `${word}:*`).join(' & ');
    return db
      .selectFrom('task_search')
      .select('task_search.task_id')
      .where(sql<boolean>`task_search.document @@ to_tsquery('simple', ${query})`);
  }
  return sqliteMatches(db, words, also).select('k.task_id');
}

/**
 * SQLite: the full-text row ids matching every one of `words`, for a walk of the tasks in a
 * sort's order that checks each one's key against them (repository.ts, walksSortIndex): SQLite
 * reads them once into an in-memory index. Compare with a unary plus on the key's id
 * (`+k.search_id in (...)`): as an index constraint SQLite would look up every id for every
 * task walked.
 */
export function sqliteMatchingRowIds(
  db: Kysely<Database>,
  words: string[],
  priorities: readonly TaskPriority[] = [],
  /** The words' kept matches (search-matches.ts), if kept: their own row ids, no list built. */
  kept?: string,
) {
  // Kept matches hold no priority: with one asked, the index narrows them as before.
  if (kept !== undefined && priorities.length === 0) {
    return db
      .selectFrom(sql<{ rowid: number }>`${sql.raw(kept)}`.as('m'))
      .select(sql<number>`m.rowid`.as('rowid'));
  }
  return db
    .selectFrom('task_search')
    .select(sql<number>`task_search.rowid`.as('rowid'))
    .where(sql<boolean>`task_search match ${sqliteSearchQuery(words, priorities)}`);
}

/**
 * SQLite: how many full-text rows match every one of `words` and `priorities`: what a search
 * reads from the index before anything else narrows it (repository.ts, keysWalk). Counted once
 * per data version: the index alone, no key read (`review`, 6,666: 0.5 ms).
 */
export async function countWordMatches(
  db: Kysely<Database>,
  words: string[],
  priorities: readonly TaskPriority[],
  version: number,
): Promise<number> {
  const query = sqliteSearchQuery(words, priorities);
  return wordMatchCounts.get(db, version, query, async () => {
    const row = await db
      .selectFrom('task_search')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where(sql<boolean>`task_search match ${query}`)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  });
}

const wordMatchCounts = new VersionedMemo<number>(256);

/** What narrows a search besides its words, checked on the full-text rows' keys. */
export interface SearchAlso {
  assigneeId?: string;
  labelIds?: string[];
  priorities?: TaskPriority[];
  due?: DueWindow;
  /** The status tab: a page's, never its counts' (they count every status). */
  status?: TaskStatus;
}

/**
 * SQLite: the FTS5 query of `words` and `priorities`. The words are searched in the `document`
 * column alone; a priority is a token of the `facets` column (migration 2026-11-27-603:
 * `zqphigh`...), so FTS5 itself narrows the matches, and only their keys are read (a third to a
 * fifth of a common word's). Two priorities of three are asked as NOT the third: an OR of two
 * long token lists costs twice as much.
 */
export function sqliteSearchQuery(words: string[], priorities: readonly TaskPriority[] = []) {
  const query = `{document} : (${words.map((word) => `"${word}"*`).join(' AND ')})`;
  const asked = new Set(priorities);
  const facet = (priority: TaskPriority) => `{facets} : zqp${priority.toLowerCase()}`;
  if (asked.size === 1) return `${query} AND ${facet([...asked][0]!)}`;
  const others = TASK_PRIORITIES.filter((priority) => !asked.has(priority));
  if (asked.size === 2 && others.length === 1) return `${query} NOT ${facet(others[0]!)}`;
  return query;
}

/**
 * SQLite: the full-text rows matching every one of `words` (and `also`), each with its key's
 * task id, status and creation time (migration 2026-11-27-401), as `k`.
 */
function sqliteMatches(
  db: Kysely<Database>,
  words: string[],
  { assigneeId, labelIds, priorities, due, status }: SearchAlso,
) {
  const query = sqliteSearchQuery(words, priorities);
  return (
    db
      .selectFrom('task_search')
      .innerJoin('task_search_keys as k', 'k.search_id', 'task_search.rowid')
      .where(sql<boolean>`task_search match ${query}`)
      // IN, not EXISTS: SQLite reads the person's assignments once into a small in-memory index
      // (by their full-text row ids), rather than probing the assignments' B-tree for each
      // match, and checks each match's id before reading its key (5 times faster than by task
      // id for a member's search). The unary plus keeps the matches the outer loop: from the
      // assignments, FTS5 would run the query again for each.
      .$if(assigneeId !== undefined, (q) =>
        q.where(
          sql<number>`+task_search.rowid`,
          'in',
          db
            .selectFrom('task_assignees as a')
            .innerJoin('task_search_keys as ak', 'ak.task_id', 'a.task_id')
            .select('ak.search_id')
            .where('a.user_id', '=', assigneeId!),
        ),
      )
      .$if((labelIds?.length ?? 0) > 0, (q) =>
        q.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('task_labels as l')
              .select('l.task_id')
              .whereRef('l.task_id', '=', 'k.task_id')
              .where('l.label_id', 'in', labelIds!),
          ),
        ),
      )
      .$call((q) => keyChecks({ status, due }).reduce((checked, check) => checked.where(check), q))
  );
}

/**
 * The status tab and the due window as conditions on the full-text rows' keys, as `k`: the
 * status and due date kept beside each row (sqliteMatches, keptTitlePage).
 */
function keyChecks({ status, due }: Pick<SearchAlso, 'status' | 'due'>) {
  const checks: Array<RawBuilder<boolean>> = [];
  if (status !== undefined) checks.push(sql<boolean>`k.status = ${status}`);
  if (due?.openOnly === true) {
    checks.push(sql<boolean>`k.status in (${sql.join([...OPEN_STATUSES])})`);
  }
  if (due?.from !== undefined) checks.push(sql<boolean>`k.due_date >= ${due.from}`);
  if (due?.before !== undefined) checks.push(sql<boolean>`k.due_date < ${due.before}`);
  return checks;
}

/**
 * SQLite: how many tasks match every one of `words` (and `also`), by status, read from the
 * full-text index and the status kept beside each of its rows: no task is read from `tasks`.
 * Undefined on PostgreSQL, whose counts join the matches to `tasks`.
 */
export async function countMatchesByStatus(
  db: Kysely<Database>,
  words: string[],
  also: SearchAlso,
): Promise<Array<{ status: TaskStatus | null; count: number }> | undefined> {
  if (isPostgres(db)) return undefined;
  const rows = await sqliteMatches(db, words, also)
    .select(['k.status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('k.status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}

/**
 * SQLite: how many of the not-done tasks matching every one of `words` (and `also`, but its
 * due window's end) fall due before `before`, by status, and the earliest due date of those
 * that do not: until then, and while nothing is written, the overdue counts stay the same
 * (countFilteredTasks). One read of the matches' keys, as countMatchesByStatus. Undefined on
 * PostgreSQL.
 */
export async function countOverdueMatchesByStatus(
  db: Kysely<Database>,
  words: string[],
  also: SearchAlso,
  before: string,
): Promise<
  { rows: Array<{ status: TaskStatus | null; count: number }>; nextDue: string | null } | undefined
> {
  if (isPostgres(db)) return undefined;
  const due = { ...also.due, openOnly: true, before: undefined };
  const rows = await sqliteMatches(db, words, { ...also, due })
    .select([
      'k.status',
      sql<number>`sum(k.due_date < ${before})`.as('count'),
      sql<string | null>`min(case when k.due_date >= ${before} then k.due_date end)`.as('next_due'),
    ])
    .groupBy('k.status')
    .execute();
  return {
    rows: rows.map((row) => ({ status: row.status, count: Number(row.count) })),
    nextDue: earliestNextDue(rows),
  };
}

/** The sorts a search's page can take from the full-text rows' keys alone. */
export type KeySort = 'createdAt' | 'dueDate' | 'priority' | 'title';

/** A page's size and place, in one of the sorts its keys hold (but creation order). */
interface KeyPage {
  sort: Exclude<KeySort, 'createdAt'>;
  order: 'asc' | 'desc';
  limit: number;
  after?: TaskPageKey;
}

/**
 * The order of `sort` on the keys, as `k`, in `order`: its columns, then every key with ties
 * broken by task id, and what comes after a page key (a row-value comparison: one range of an
 * index).
 */
function keyOrder(sort: KeyPage['sort'], order: KeyPage['order']) {
  const columns = {
    dueDate: [sql.ref<string>('k.due_date')],
    priority: [priorityRank('k.priority'), sql.ref<string>('k.created_at')],
    // lower(title), as the task list's title sort (migration 2026-11-27-605).
    title: [sql.ref<string>('k.title_key')],
  }[sort];
  const keys = [...columns, sql.ref<string>('k.task_id')];
  const comparison = order === 'asc' ? sql.raw('>') : sql.raw('<');
  const after = (key: TaskPageKey) =>
    sql<boolean>`(${sql.join(keys)}) ${comparison} (${sql.join([...key])})`;
  return { columns, keys, after };
}

/** The rows of a page read from the keys, each with its page key as the task list gives it. */
function keyPageRows(
  sort: KeyPage['sort'],
  rows: Array<{ task_id: string; created_at: string | null; page_key_0: string | number }>,
): Array<{ id: string; pageKey: TaskPageKey }> {
  // The triggers fill every key with its task's own values (NOT NULL columns there).
  return rows.map((row) => ({
    id: row.task_id,
    pageKey:
      sort === 'priority'
        ? [Number(row.page_key_0), row.created_at!, row.task_id]
        : [String(row.page_key_0), row.task_id],
  }));
}

/**
 * SQLite: one page of the tasks matching every one of `words` (and `also`, and the status tab
 * `status`) in `sort` order (ties by id, all in `order`), after the key `after`: sorted from the
 * keys kept beside the full-text rows (creation time, due date, priority, title), so no task is read
 * from `tasks`; each row with its page key as the task list gives it. Every match's key is read
 * (see walkedMatchesPage for a broad search). Undefined on PostgreSQL.
 */
export async function matchesPage(
  db: Kysely<Database>,
  words: string[],
  also: SearchAlso,
  page: Omit<KeyPage, 'sort'> & { sort: KeySort },
): Promise<Array<{ id: string; pageKey: TaskPageKey }> | undefined> {
  if (isPostgres(db)) return undefined;
  const { sort } = page;
  if (sort === 'createdAt') {
    return creationOrderMatches(db, words, also, page.limit, page.order, page.after);
  }
  const { columns, keys, after } = keyOrder(sort, page.order);
  let query = sqliteMatches(db, words, also).select([
    'k.task_id',
    'k.created_at',
    sql<string | number>`${columns[0]}`.as('page_key_0'),
  ]);
  if (page.after) query = query.where(after(page.after));
  for (const key of keys) query = query.orderBy(key, page.order);
  return keyPageRows(sort, await query.limit(page.limit).execute());
}

/**
 * SQLite: a broad search's page in due-date, priority or title order, found by walking the keys
 * in that order (migration 2026-11-28-606's indexes) and checking each one's full-text row id
 * against the matches' (sqliteMatchingRowIds, read once into an in-memory index): the walk stops
 * at the page's last task, where matchesPage reads and sorts every match's key (`review`, 6,666
 * matches in 100,000 tasks: 4.5 ms read and sorted, 1.3 ms walked). At most `cap` keys are
 * walked: the matches may lie together in that order (a word that starts titles, in title
 * order), and the walk would pass most tasks before the first. Undefined when the walk did not
 * fill the page: the caller then reads the matches first (it ended inside its `cap`, or the
 * list ended: matchesPage answers both). Assignees and labels are not checked here: the caller
 * walks only a search that neither narrows.
 */
export async function walkedMatchesPage(
  db: Kysely<Database>,
  words: string[],
  also: Omit<SearchAlso, 'assigneeId' | 'labelIds'>,
  page: KeyPage,
  cap: number,
  /** The words' kept matches (search-matches.ts), when kept: no list is built from the index. */
  kept?: string,
): Promise<Array<{ id: string; pageKey: TaskPageKey }> | undefined> {
  const { sort, order } = page;
  const { columns, keys, after } = keyOrder(sort, order);
  const { due, status, priorities } = also;
  // One priority in due-date order: that priority's keys alone are walked (2026-11-29-611).
  const walkedPriority = walksOnePriority(sort, priorities);
  const walked = db
    .selectFrom('task_search_keys as k')
    .select([
      'k.task_id',
      'k.created_at',
      'k.search_id',
      'k.status',
      'k.due_date',
      sql<string | number>`${columns[0]}`.as('page_key_0'),
    ])
    // What is a range of the walked index narrows the walk itself; the rest is checked on
    // what it passes (below), so that `cap` counts every key walked.
    .$if(page.after !== undefined, (q) => q.where(after(page.after!)))
    .$if(sort === 'dueDate' && due?.from !== undefined, (q) =>
      q.where('k.due_date', '>=', due!.from!),
    )
    .$if(sort === 'dueDate' && due?.before !== undefined, (q) =>
      q.where('k.due_date', '<', due!.before!),
    )
    .$if(walkedPriority !== undefined, (q) => q.where('k.priority', '=', walkedPriority!))
    .$if(sort === 'priority' && (priorities?.length ?? 0) > 0, (q) =>
      q.where(columns[0]!, 'in', priorityRanks(priorities!)),
    )
    .$call((q) => keys.reduce((ordered, key) => ordered.orderBy(key, order), q))
    .limit(cap)
    .as('w');
  const rows = await db
    .selectFrom(walked)
    .select(['w.task_id', 'w.created_at', 'w.page_key_0'])
    .where(
      'w.search_id',
      'in',
      // The walk holds the priority: the kept matches (which hold none) answer for the words.
      sqliteMatchingRowIds(db, words, walkedPriority && kept ? [] : priorities, kept),
    )
    .$if(status !== undefined, (q) => q.where('w.status', '=', status!))
    .$if(due?.openOnly === true, (q) => q.where('w.status', 'in', OPEN_STATUSES))
    .$if(sort !== 'dueDate' && due?.from !== undefined, (q) =>
      q.where('w.due_date', '>=', due!.from!),
    )
    .$if(sort !== 'dueDate' && due?.before !== undefined, (q) =>
      q.where('w.due_date', '<', due!.before!),
    )
    .$call((q) =>
      (sort === 'priority'
        ? (['w.page_key_0', 'w.created_at', 'w.task_id'] as const)
        : (['w.page_key_0', 'w.task_id'] as const)
      ).reduce((ordered, key) => ordered.orderBy(key, order), q),
    )
    .limit(page.limit)
    .execute();
  return rows.length === page.limit ? keyPageRows(sort, rows) : undefined;
}

/**
 * The one priority a keys walk in `sort` order walks alone (its keys by due date, migration
 * 2026-11-29-611), if any: a page in due-date order narrowed to a single priority.
 */
export function walksOnePriority(
  sort: KeySort | 'updatedAt',
  priorities: readonly TaskPriority[] | undefined,
): TaskPriority | undefined {
  return sort === 'dueDate' && priorities?.length === 1 ? priorities[0] : undefined;
}

/**
 * SQLite: a search's page in title order from its kept matches (search-matches.ts): their
 * title index walked in `order`, each one's key checked for the status tab, priorities and due
 * window, stopping at the page's last task (`review`, 6,666 matches: 0.1 ms, against 4.8 read
 * and sorted from the keys). The kept titles are the keys' own (the table is filled anew when a
 * title changes).
 */
export async function keptTitlePage(
  db: Kysely<Database>,
  kept: string,
  { priorities, due, status }: Omit<SearchAlso, 'assigneeId' | 'labelIds'>,
  page: Omit<KeyPage, 'sort'>,
): Promise<Array<{ id: string; pageKey: TaskPageKey }>> {
  const keys = [sql.ref<string>('m.title_key'), sql.ref<string>('m.task_id')];
  const comparison = page.order === 'asc' ? sql.raw('>') : sql.raw('<');
  const rows = await db
    .selectFrom(
      sql<{ rowid: number; task_id: string; title_key: string }>`${sql.raw(kept)}`.as('m'),
    )
    .innerJoin('task_search_keys as k', 'k.search_id', 'm.rowid')
    .select(['m.task_id', 'k.created_at', sql<string>`m.title_key`.as('page_key_0')])
    .$if(page.after !== undefined, (q) =>
      q.where(sql<boolean>`(${sql.join(keys)}) ${comparison} (${sql.join([...page.after!])})`),
    )
    .$call((q) => keyChecks({ status, due }).reduce((checked, check) => checked.where(check), q))
    .$if((priorities?.length ?? 0) > 0, (q) => q.where('k.priority', 'in', priorities!))
    .$call((q) => keys.reduce((ordered, key) => ordered.orderBy(key, page.order), q))
    .limit(page.limit)
    .execute();
  return keyPageRows('title', rows);
}

/**
 * The smallest full-text row id of a task created at `createdAt` (migration 2026-11-27-601,
 * the same expression): its creation second, shifted left by 24 bits. Every task created at or
 * after `createdAt` has an id at or above it.
 */
const orderFloor = (createdAt: string) =>
  sql<number>`(coalesce(cast(strftime('%s', ${createdAt}) as integer), 0) << 24)`;

/**
 * The first full-text row id above the second of `createdAt` (the next second's floor): every
 * task created at or before `createdAt` has an id below it.
 */
const orderCeiling = (createdAt: string) => sql<number>`(${orderFloor(createdAt)} + ${1 << 24})`;

/** The creation second of an ISO instant, as the migration's strftime reads it; NaN if none. */
const creationSecond = (createdAt: string) => Math.floor(Date.parse(createdAt) / 1000);

/** Matches read past the page's size by a search in creation order: see creationOrderMatches. */
const LOOKAHEAD = 8;

/**
 * SQLite: a search's page in creation order, newest or oldest first, read in the full-text
 * index's own order (row ids follow creation times, migration 2026-11-27-601), from its highest
 * ids or its lowest. The first matches read, a few more than a page, are the newest (or oldest)
 * give or take a second: sorted exactly (creation time, then id, both in `order`, as the task
 * list pages), the page is their first `limit`, unless a match not read could still belong on
 * it. Newest first, such a match was created no earlier than the second of the page's last
 * task, so its id is at least that second's floor and below the lowest id read; oldest first,
 * no later than that second, so its id is below the next second's floor and above the highest
 * id read: that range is then read too (usually no match was read in it: with one task a second
 * or fewer, the look-ahead already reaches another second). Any other match comes after every
 * task on the page. A cursor bounds the ids the same way: newest first, a match older than the
 * cursor's task has an id below the next second's floor, oldest first at least its second's.
 * Row ids are read as text: they are beyond a JavaScript number's integers.
 */
async function creationOrderMatches(
  db: Kysely<Database>,
  words: string[],
  also: SearchAlso,
  limit: number,
  order: 'asc' | 'desc',
  after?: TaskPageKey,
): Promise<Array<{ id: string; pageKey: TaskPageKey }>> {
  const newestFirst = order === 'desc';
  const rowid = sql.ref<number>('task_search.rowid');
  const matches = () =>
    sqliteMatches(db, words, also)
      .$if(after !== undefined, (q) => {
        const [createdAt, id] = after! as [string, string];
        const beyond = newestFirst
          ? sql<boolean>`(k.created_at, k.task_id) < (${createdAt}, ${id})`
          : sql<boolean>`(k.created_at, k.task_id) > (${createdAt}, ${id})`;
        if (!Number.isFinite(creationSecond(createdAt))) return q.where(beyond);
        return q
          .where(beyond)
          .where(
            rowid,
            newestFirst ? '<' : '>=',
            (newestFirst ? orderCeiling : orderFloor)(createdAt),
          );
      })
      .select([
        'k.task_id',
        'k.created_at',
        sql<string>`cast(task_search.rowid as text)`.as('sid'),
      ]);
  // Creation times are ISO instants and ids UUIDs: ASCII, so JavaScript's order is SQLite's.
  const direction = newestFirst ? -1 : 1;
  const compare = (a: string, b: string) => (a < b ? -direction : a > b ? direction : 0);
  const sorted = <T extends { task_id: string; created_at: string | null }>(rows: T[]) =>
    rows.sort((a, b) => compare(a.created_at!, b.created_at!) || compare(a.task_id, b.task_id));
  const rows = sorted(
    await matches()
      .orderBy(rowid, order)
      .limit(limit + LOOKAHEAD)
      .execute(),
  );
  if (rows.length === limit + LOOKAHEAD) {
    const ids = rows.map((row) => BigInt(row.sid));
    const last = rows[limit - 1]!.created_at!;
    const second = creationSecond(last);
    if (newestFirst) {
      const lowest = ids.reduce((min, sid) => (sid < min ? sid : min));
      // The floor of its second, as orderFloor computes it in SQL.
      if (!Number.isFinite(second) || lowest > BigInt(second) << 24n) {
        rows.push(
          ...(await matches()
            .where(rowid, '>=', orderFloor(last))
            .where(rowid, '<', sql<number>`${lowest}`)
            .execute()),
        );
      }
    } else {
      const highest = ids.reduce((max, sid) => (sid > max ? sid : max));
      // The next second's floor, as orderCeiling computes it in SQL (without one: every id).
      const finite = Number.isFinite(second);
      if (!finite || highest + 1n < (BigInt(second) + 1n) << 24n) {
        rows.push(
          ...(await matches()
            .where(rowid, '>', sql<number>`${highest}`)
            .$if(finite, (q) => q.where(rowid, '<', orderCeiling(last)))
            .execute()),
        );
      }
    }
    sorted(rows);
  }
  return rows
    .slice(0, limit)
    .map((row) => ({ id: row.task_id, pageKey: [row.created_at!, row.task_id] }));
}
