import { PostgresAdapter, sql, type Kysely } from 'kysely';
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
  const query = words.map((word) => `"${word}"*`).join(' AND ');
  return db
    .selectFrom('task_search')
    .innerJoin('task_search_keys', 'task_search_keys.search_id', 'task_search.rowid')
    .select('task_search_keys.task_id')
    .where(sql<boolean>`task_search match ${query}`);
}
