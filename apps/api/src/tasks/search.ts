import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { TaskStatus } from '@task-manager/shared';
import type { Database } from '../db/tables.js';

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
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
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
}

/**
 * SQLite: the full-text rows matching every one of `words` (and `also`), each with its key's
 * task id, status and creation time (migration 2026-11-27-401), as `k`.
 */
function sqliteMatches(
  db: Kysely<Database>,
  words: string[],
  { assigneeId, labelIds }: SearchAlso,
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
  if (db.getExecutor().adapter instanceof PostgresAdapter) return undefined;
  const rows = await sqliteMatches(db, words, also)
    .select(['k.status', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy('k.status')
    .execute();
  return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
}

/**
 * SQLite: the ids of one page of the tasks matching every one of `words` (and `also`, and the
 * status tab `status`) in creation order (ties by id, both in `order`), after the key `after`:
 * sorted from the creation times kept beside the full-text rows, so only the page's tasks are
 * then read from `tasks`. Undefined on PostgreSQL.
 */
export function newestMatchesPage(
  db: Kysely<Database>,
  words: string[],
  also: SearchAlso & { status?: TaskStatus },
  page: { order: 'asc' | 'desc'; limit: number; after?: readonly [string, string] },
) {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return undefined;
  const comparison = page.order === 'asc' ? sql.raw('>') : sql.raw('<');
  return sqliteMatches(db, words, also)
    .$if(also.status !== undefined, (q) => q.where('k.status', '=', also.status!))
    .$if(page.after !== undefined, (q) =>
      q.where(
        sql<boolean>`(k.created_at, k.task_id) ${comparison} (${page.after![0]}, ${page.after![1]})`,
      ),
    )
    .select(['k.task_id', 'k.created_at'])
    .orderBy('k.created_at', page.order)
    .orderBy('k.task_id', page.order)
    .limit(page.limit);
}
