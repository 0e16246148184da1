import { sql, type Kysely } from 'kysely';
import type { TaskPriority, TaskStatus } from '@task-manager/shared';
import { isPostgres } from '../db/database.js';
import type { Database } from '../db/tables.js';
import { OPEN_STATUSES, priorityRank, type DueWindow, type TaskPageKey } from './search-filters.js';

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
 * in either engine's query syntax (they are bound as parameters all the same).
 */
export function matchingTaskIds(db: Kysely<Database>, words: string[]) {
  if (isPostgres(db)) {
    const query = words.map((word) => `${word}:*`).join(' & ');
    return db
      .selectFrom('task_search')
      .select('task_search.task_id')
      .where(sql<boolean>`task_search.document @@ to_tsquery('simple', ${query})`);
  }
  return sqliteMatches(db, words, {}).select('k.task_id');
}

/** What narrows a search besides its words, checked on the full-text rows' keys. */
interface SearchAlso {
  assigneeId?: string;
  labelIds?: string[];
  priorities?: TaskPriority[];
  due?: DueWindow;
}

/**
 * SQLite: the full-text rows matching every one of `words` (and `also`), each with its key's
 * task id, status and creation time (migration 2026-11-27-401), as `k`.
 */
function sqliteMatches(
  db: Kysely<Database>,
  words: string[],
  { assigneeId, labelIds, priorities, due }: SearchAlso,
) {
  const query = words.map((word) => `"${word}"*`).join(' AND ');
  return (
    db
      .selectFrom('task_search')
      .innerJoin('task_search_keys as k', 'k.search_id', 'task_search.rowid')
      .where(sql<boolean>`task_search match ${query}`)
      // IN, not EXISTS: SQLite reads the person's assignments once into a small in-memory index,
      // rather than probing the assignments' B-tree for each match. The unary plus keeps the
      // matches the outer loop: from the assignments, FTS5 would run the query again for each.
      .$if(assigneeId !== undefined, (q) =>
        q.where(
          sql<string>`+k.task_id`,
          'in',
          db
            .selectFrom('task_assignees as a')
            .select('a.task_id')
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
      .$if((priorities?.length ?? 0) > 0, (q) => q.where('k.priority', 'in', priorities!))
      .$if(due?.openOnly === true, (q) => q.where('k.status', 'in', OPEN_STATUSES))
      .$if(due?.from !== undefined, (q) => q.where('k.due_date', '>=', due!.from!))
      .$if(due?.before !== undefined, (q) => q.where('k.due_date', '<', due!.before!))
  );
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

/** The sorts a search's page can take from the full-text rows' keys alone. */
export type KeySort = 'createdAt' | 'dueDate' | 'priority';

/**
 * SQLite: one page of the tasks matching every one of `words` (and `also`, and the status tab
 * `status`) in `sort` order (ties by id, all in `order`), after the key `after`: sorted from the
 * keys kept beside the full-text rows (creation time, due date, priority), so no task is read
 * from `tasks`; each row with its page key as the task list gives it. Undefined on PostgreSQL.
 */
export async function matchesPage(
  db: Kysely<Database>,
  words: string[],
  also: SearchAlso & { status?: TaskStatus },
  page: {
    sort: KeySort;
    order: 'asc' | 'desc';
    limit: number;
    after?: TaskPageKey;
  },
): Promise<Array<{ id: string; pageKey: TaskPageKey }> | undefined> {
  if (isPostgres(db)) return undefined;
  const columns = {
    createdAt: [sql.ref<string>('k.created_at')],
    dueDate: [sql.ref<string>('k.due_date')],
    priority: [priorityRank('k.priority'), sql.ref<string>('k.created_at')],
  }[page.sort];
  const keys = [...columns, sql.ref<string>('k.task_id')];
  const comparison = page.order === 'asc' ? sql.raw('>') : sql.raw('<');
  let query = sqliteMatches(db, words, also)
    .$if(also.status !== undefined, (q) => q.where('k.status', '=', also.status!))
    .select(['k.task_id', 'k.created_at', sql<string | number>`${columns[0]}`.as('page_key_0')]);
  if (page.after) {
    query = query.where(
      sql<boolean>`(${sql.join(keys)}) ${comparison} (${sql.join([...page.after])})`,
    );
  }
  for (const key of keys) query = query.orderBy(key, page.order);
  const rows = await query.limit(page.limit).execute();
  // The triggers fill every key with its task's own values (NOT NULL columns there).
  return rows.map((row) => ({
    id: row.task_id,
    pageKey:
      page.sort === 'priority'
        ? [Number(row.page_key_0), row.created_at!, row.task_id]
        : [String(row.page_key_0), row.task_id],
  }));
}
