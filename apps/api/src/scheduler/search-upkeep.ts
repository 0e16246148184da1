import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../db/database.js';
import type { Database } from '../db/tables.js';
import { takeLease } from './lease.js';

/**
 * SQLite's full-text index (FTS5, `task_search`) is a log-structured set of b-trees: every
 * writing transaction adds a small one, and FTS5 merges them a few at a time as it goes, so a
 * database that has seen many writes holds a dozen or more (15 on the 100,000-task benchmark
 * database). A search reads every one of them: merged back into one, the same searches cost a
 * quarter to a fifth of the time (`budget`: 650 -> 130 µs to find its 5,095 matches).
 *
 * The upkeep merges them back into one, a step at a time: each step is one statement that
 * writes about `stepPages` pages of the index (a few milliseconds), so requests wait at most
 * that long for the database between steps. Rewriting the index costs about a second of CPU per
 * 100,000 tasks, so it runs at most once an hour (runSearchUpkeep, from the scheduler's tick),
 * and only when there is more than one b-tree. PostgreSQL's GIN index keeps itself: nothing to
 * do there.
 */
export const MERGE_STEP_PAGES = 250;

export interface SearchUpkeep {
  /** B-trees in the index before and after the run. */
  segmentsBefore: number;
  segmentsAfter: number;
  /** Merge statements run. */
  steps: number;
}

/** How many b-trees (FTS5 segments) the full-text index holds; each has rows in its `_idx`. */
export async function searchIndexSegments(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{
    segments: number;
  }>`select count(distinct segid) as segments from task_search_idx`.execute(db);
  return Number(rows[0]?.segments ?? 0);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Merges SQLite's full-text index into one b-tree, `stepPages` pages per statement, letting
 * other work run between statements. Writes that land meanwhile add b-trees of their own: the
 * run stops after enough steps to rewrite the whole index twice, and the next run goes on.
 * Answers null on PostgreSQL.
 */
export async function mergeSearchIndex(
  db: Kysely<Database>,
  { stepPages = MERGE_STEP_PAGES }: { stepPages?: number } = {},
): Promise<SearchUpkeep | null> {
  if (isPostgres(db)) return null;
  const segmentsBefore = await searchIndexSegments(db);
  let segments = segmentsBefore;
  let steps = 0;
  if (segments > 1) {
    const { rows } = await sql<{
      pages: number;
    }>`select count(*) as pages from task_search_data`.execute(db);
    const maxSteps = 2 * Math.ceil(Number(rows[0]?.pages ?? 0) / stepPages) + 10;
    // A negative page count merges every b-tree into one, whatever their levels (FTS5's
    // 'merge' command); a positive one would merge only levels that have filled up.
    while (segments > 1 && steps < maxSteps) {
      await sql`insert into task_search (task_search, rank) values ('merge', ${-stepPages})`.execute(
        db,
      );
      steps += 1;
      await nextTurn();
      segments = await searchIndexSegments(db);
    }
  }
  return { segmentsBefore, segmentsAfter: segments, steps };
}

/** The upkeep runs at most once an hour, in the one process that takes its lease. */
export const SEARCH_UPKEEP_EVERY_MS = 60 * 60_000;

/**
 * The scheduler's step (scheduler.ts): merges the index if this process takes the hour's lease.
 * Answers null on PostgreSQL, or when another process holds the lease.
 */
export async function runSearchUpkeep(
  db: Kysely<Database>,
  holder: string,
  now: Date = new Date(),
): Promise<SearchUpkeep | null> {
  if (isPostgres(db)) return null;
  const until = new Date(now.getTime() + SEARCH_UPKEEP_EVERY_MS);
  if (!(await takeLease(db, 'search-upkeep', holder, now, until))) return null;
  return mergeSearchIndex(db);
}
