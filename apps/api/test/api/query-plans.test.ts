import { randomUUID } from 'node:crypto';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASK_SORTS, type TaskSort } from '@task-manager/shared';
import { createApp } from '../../src/app.js';
import type { Database } from '../../src/db/tables.js';
import {
  countOverdueTasks,
  countTasks,
  findTaskRow,
  countTasksByStatus,
  listTaskPage,
  listTaskPageWithCounts,
  listTaskRows,
  type TaskFilter,
  type TaskRow,
} from '../../src/tasks/repository.js';
import { taskCardDocuments, taskDocuments } from '../../src/tasks/documents.js';
import { dueWindow } from '../../src/tasks/search-filters.js';
import { TaskService } from '../../src/tasks/service.js';
import { runDueReminders } from '../../src/scheduler/due-reminders.js';
import { listMembersWithTaskCounts } from '../../src/users/repository.js';
import { seedMembers, seedTasks } from '../helpers/bulk-seed.js';
import { createTask, signUp } from '../helpers/factories.js';
import { onlyOn } from '../helpers/only-on.js';
import { captureQueries } from '../helpers/query-capture.js';
import { createTestContext, ENGINE, testConfig, type TestContext } from '../helpers/test-app.js';

/**
 * The hot queries read what they need through an index, whatever the size of the tables: no
 * scan of a whole table, and no sort where an index can give the order. Each test runs the real
 * repository code on a database of a few thousand tasks, records its SQL and asks the engine for
 * the plan (docs/performance.md, "Query plans", shows them).
 *
 * The data has the shape of a big team: 1,000 members, each task assigned to two of them, so a
 * member holds 0.2 % of the tasks, as at 1,000,000 tasks.
 */

const MEMBERS = 1000;
const TASKS = 4000;

/** The index each sort of the task list reads its order from (migration 2026-11-26-203). */
const SORT_INDEX: Record<TaskSort, string> = {
  createdAt: 'tasks_created_idx',
  updatedAt: 'tasks_updated_idx',
  dueDate: 'tasks_due_date_idx',
  title: 'tasks_title_idx',
  priority: 'tasks_priority_rank_idx',
};

/** The index that serves each table's primary key, as each engine names it. */
const PRIMARY_KEY = {
  sqlite: { tasks: 'sqlite_autoindex_tasks_1', taskDueDays: 'sqlite_autoindex_task_due_days_1' },
  postgres: { tasks: 'tasks_pkey', taskDueDays: 'task_due_days_pkey' },
}[ENGINE];

/**
 * The plan of one query, one line per step.
 *
 * PostgreSQL: after VACUUM ANALYZE (what autovacuum does on a live server; VACUUM also marks
 * pages all-visible, which index-only scans need), and with `enable_seqscan = off`. The tables
 * here are a few hundred pages, so reading a whole one is honestly cheaper than a hundred index
 * probes, and the planner would pick it; at 1,000,000 rows it no longer is. The setting does not
 * forbid sequential scans, it only prices them out: a query with no usable index still shows
 * "Seq Scan" and fails below. It shows the index path the planner takes on a big table.
 * SQLite: as the app runs it, without ANALYZE statistics (the app never gathers any).
 */
async function planOf(db: Kysely<Database>, query: CompiledQuery): Promise<string[]> {
  if (ENGINE === 'sqlite') {
    const explain = CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]);
    const { rows } = await db.executeQuery<{ detail: string }>(explain);
    return rows.map((row) => row.detail);
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const explain = CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]);
    const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(explain);
    return rows.map((row) => row['QUERY PLAN']);
  });
}

interface Planned {
  sql: string;
  plan: string[];
}

/** What the engine makes of each query `run` sends. */
async function plansOf(
  db: Kysely<Database>,
  run: (db: Kysely<Database>) => Promise<unknown>,
): Promise<Planned[]> {
  const capture = captureQueries(db);
  await run(capture.db);
  const queries = capture.take();
  expect(queries.length).toBeGreaterThan(0);
  const planned: Planned[] = [];
  for (const query of queries) planned.push({ sql: query.sql, plan: await planOf(db, query) });
  return planned;
}

function usesIndex(plan: string[], index: string): boolean {
  const pattern =
    ENGINE === 'sqlite'
      ? new RegExp(`USING (COVERING )?INDEX ${index}\\b`)
      : new RegExp(`(Index (Only )?Scan( Backward)? using|Bitmap Index Scan on) ${index}\\b`);
  return plan.some((line) => pattern.test(line));
}

/** A whole table read row by row: SQLite's bare "SCAN table", PostgreSQL's "Seq Scan". */
function fullScans(plan: string[]): string[] {
  const pattern = ENGINE === 'sqlite' ? /^SCAN \w+$/ : /Seq Scan on /;
  return plan.filter((line) => pattern.test(line.trim()));
}

/** A sort of the rows found: SQLite's temp B-tree, PostgreSQL's Sort node. */
function sorts(plan: string[]): string[] {
  const pattern = ENGINE === 'sqlite' ? /USE TEMP B-TREE/ : /^(->\s+)?(Incremental )?Sort\b/;
  return plan.filter((line) => pattern.test(line.trim()));
}

function expectPlan(
  { sql: text, plan }: Planned,
  expected: { indexes: string[]; sorts?: boolean },
) {
  const where = `${text}\n${plan.join('\n')}`;
  for (const index of expected.indexes) expect(usesIndex(plan, index), where).toBe(true);
  expect(fullScans(plan), where).toEqual([]);
  if (!expected.sorts) expect(sorts(plan), where).toEqual([]);
}

describe(`query plans of the hot queries (${ENGINE})`, () => {
  let ctx: TestContext;
  let members: Array<{ id: string; name: string }>;
  let newest: TaskRow[];
  /** The cursor after the first page: later pages must seek, not skip. */
  let before: readonly [string, string];
  const member = () => members[3]!;

  beforeAll(async () => {
    ctx = await createTestContext();
    members = await seedMembers(ctx.db, MEMBERS);
    await seedTasks(ctx.db, {
      count: TASKS,
      createdBy: members[0]!.id,
      assign: (i) => [members[i % MEMBERS]!.id, members[(i * 7 + 1) % MEMBERS]!.id],
    });
    if (ENGINE === 'postgres') await sql`vacuum analyze`.execute(ctx.db);
    newest = await listTaskRows(ctx.db, {}, { limit: 100 });
    const last = newest.at(-1)!;
    before = [last.created_at, last.id];
  });
  afterAll(() => ctx.close());

  it('admin task page: newest first straight from the (created_at, id) index', async () => {
    for (const cursor of [undefined, before]) {
      const [page] = await plansOf(ctx.db, (db) =>
        listTaskRows(db, {}, { limit: 101, before: cursor }),
      );
      expectPlan(page!, { indexes: ['tasks_created_idx'] });
    }
  });

  it('admin status tab page: one range of the (status, created_at, id) index', async () => {
    for (const cursor of [undefined, before]) {
      const [page] = await plansOf(ctx.db, (db) =>
        listTaskRows(db, {}, { status: 'In Progress', limit: 101, before: cursor }),
      );
      expectPlan(page!, { indexes: ['tasks_status_created_idx'] });
    }
  });

  it("member task page: the member's assignments newest first, then each task by primary key", async () => {
    const mine = await listTaskRows(ctx.db, { assigneeId: member().id }, { limit: 5 });
    const cursor = [mine.at(-1)!.created_at, mine.at(-1)!.id] as const;
    for (const filter of [{}, { before: cursor }, { status: 'Pending' as const }]) {
      const [page] = await plansOf(ctx.db, (db) =>
        listTaskRows(db, { assigneeId: member().id }, { ...filter, limit: 101 }),
      );
      // The (user_id, task_created_at, task_id) index gives the order: no sort, and the page
      // stops after its tasks however many the member holds.
      expectPlan(page!, { indexes: ['task_assignees_user_created_idx', PRIMARY_KEY.tasks] });
      if ('before' in filter) {
        // The cursor is a range of that index, not a filter on every assignment.
        expect(page!.plan.join('\n')).toMatch(
          ENGINE === 'sqlite'
            ? /SEARCH ta USING COVERING INDEX task_assignees_user_created_idx \(user_id=\? AND \(task_created_at,task_id\)<\(\?,\?\)\)/
            : /Index Cond: \(\(user_id = [^)]+\) AND \(ROW\(task_created_at, task_id\) < ROW\(/,
        );
      }
    }
  });

  it("statusSummary and chart counts: the admin's from task_counts, a member's from their own", async () => {
    const [all] = await plansOf(ctx.db, (db) => countTasks(db, {}));
    // At most nine rows kept by triggers, whatever the number of tasks: `tasks` is not read.
    const plan = all!.plan.join('\n');
    expect(plan, `${all!.sql}\n${plan}`).toMatch(/\btask_counts\b/);
    expect(plan, `${all!.sql}\n${plan}`).not.toMatch(/\btasks\b/);
    const [mine] = await plansOf(ctx.db, (db) => countTasks(db, { assigneeId: member().id }));
    // Grouping a member's few tasks sorts them; again bounded by what one member holds.
    expectPlan(mine!, {
      indexes: ['task_assignees_user_created_idx', PRIMARY_KEY.tasks],
      sorts: true,
    });
  });

  it("overdue count: the admin's from task_due_days and today's tasks, a member's from their own", async () => {
    const now = new Date().toISOString();
    const [all] = await plansOf(ctx.db, (db) => countOverdueTasks(db, {}, now));
    // Past days from their per-day rows (bounded by the calendar), today's tasks from a range
    // of the (status, due_date) index bounded by today.
    expectPlan(all!, { indexes: [PRIMARY_KEY.taskDueDays] });
    // Either due-date index serves today's range; what matters is its lower bound (today).
    const plan = all!.plan.join('\n');
    const todayRange =
      ENGINE === 'sqlite'
        ? /USING COVERING INDEX tasks_status_due_idx \(status=\? AND due_date>\? AND due_date<\?\)/
        : /Index (Only )?Scan using tasks_(status_)?due(_date)?_idx on tasks[^\n]*\n\s+Index Cond: [^\n]*due_date >= /;
    expect(plan, `${all!.sql}\n${plan}`).toMatch(todayRange);
    const [mine] = await plansOf(ctx.db, (db) =>
      countOverdueTasks(db, { assigneeId: member().id }, now),
    );
    expectPlan(mine!, { indexes: ['task_assignees_user_created_idx', PRIMARY_KEY.tasks] });
  });

  it("a page's documents (the list's JSON, one statement): each child through its task's index", async () => {
    // No task here has a label: PostgreSQL may then read the empty table through either index.
    const labelsKey =
      ENGINE === 'sqlite'
        ? 'sqlite_autoindex_task_labels_1'
        : '(task_labels_pkey|task_labels_label_idx)';
    for (const rows of [newest.slice(0, 1), newest]) {
      const ids = rows.map((row) => row.id);
      for (const write of [taskDocuments, taskCardDocuments]) {
        // Each engine first reads the texts it stored (none here), then builds (and stores) the rest.
        await ctx.db.deleteFrom('task_documents').execute();
        const planned = await plansOf(ctx.db, (db) => write(db, ids));
        for (const each of planned) expectPlan(each, { indexes: [], sorts: true });
        const stored = planned.filter((each) => /from task_documents/.test(each.sql));
        expect(stored).toHaveLength(1);
        expectPlan(stored[0]!, {
          indexes: [
            ENGINE === 'sqlite' ? 'sqlite_autoindex_task_documents_1' : 'task_documents_pkey',
          ],
        });
        const built = planned.filter((each) => /json_(object|build_object)\(/.test(each.sql));
        expect(built).toHaveLength(1);
        // The cards count the checklist, links and files through the same indexes. An
        // aggregate's ORDER BY sorts each task's own few children, nothing more.
        expectPlan(built[0]!, {
          indexes: [
            PRIMARY_KEY.tasks,
            'task_assignees_task_position_idx',
            'todo_items_task_idx',
            'attachments_task_idx',
            labelsKey,
            'task_files_task_idx',
          ],
          sorts: true,
        });
      }
    }
  });

  it("a member's view of one task: found by primary key", async () => {
    const task = (await listTaskRows(ctx.db, { assigneeId: member().id }, { limit: 1 }))[0]!;
    const [found] = await plansOf(ctx.db, (db) =>
      findTaskRow(db, task.id, { assigneeId: member().id }),
    );
    expectPlan(found!, { indexes: [PRIMARY_KEY.tasks] });
  });

  it('user page with counts: (name, id) index, then one grouped count', async () => {
    const after = [members[10]!.name, members[10]!.id] as const;
    for (const page of [{}, { after }]) {
      const [users, counts] = await plansOf(ctx.db, (db) =>
        listMembersWithTaskCounts(db, { ...page, limit: 101 }),
      );
      expectPlan(users!, { indexes: ['users_name_idx'] });
      // The page's assignments by user; PostgreSQL then joins their tasks by hash.
      expectPlan(counts!, { indexes: ['task_assignees_user_created_idx'], sorts: true });
      // Only the page's assignments are read.
      expect(counts!.plan.join('\n')).toMatch(
        ENGINE === 'sqlite'
          ? /SEARCH ta USING COVERING INDEX task_assignees_user_created_idx \(user_id=\?\)/
          : /Index Cond: \(user_id = ANY /,
      );
    }
    const [searched] = await plansOf(ctx.db, (db) =>
      listMembersWithTaskCounts(db, { search: 'member 00', limit: 101 }),
    );
    // A substring cannot use an index; the walk is over members only, in name order on SQLite.
    expectPlan(searched!, { indexes: [], sorts: ENGINE === 'postgres' });
  });

  it('dashboards: every query indexed, the recent tasks without a sort', async () => {
    for (const scope of [{}, { assigneeId: member().id }]) {
      const planned = await plansOf(ctx.db, (db) => new TaskService(db).dashboard(scope));
      for (const query of planned) {
        // task_counts holds at most nine rows (one per status and priority): reading it whole is
        // the point.
        const plan = fullScans(query.plan).filter((line) => !/\btask_counts\b/.test(line));
        expect(plan, query.sql).toEqual([]);
      }
      const recent = planned.find((query) => /order by "(task_)?created_at" desc/.test(query.sql));
      expect(recent).toBeDefined();
      expectPlan(recent!, {
        indexes: ['assigneeId' in scope ? 'task_assignees_user_created_idx' : 'tasks_created_idx'],
      });
    }
  });
  it("due reminders: each read one index's range, a later run's by what was written since", async () => {
    const today = new Date();
    const noon = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 12),
    );
    // The first run reads every overdue task and leaves its mark; the next, the same day,
    // reads tomorrow's tasks and the overdue ones written since, and what came due since.
    await runDueReminders(ctx.db, noon);
    const planned = await plansOf(ctx.db, (db) =>
      runDueReminders(db, new Date(noon.getTime() + 60_000)),
    );
    const reads = planned.filter((query) => /from "tasks" as "t"/.test(query.sql));
    expect(reads).toHaveLength(3);
    for (const read of reads) expect(fullScans(read.plan), read.sql).toEqual([]);
    const writtenSince = reads.filter((query) => /"t"\."updated_at" >=/.test(query.sql));
    expect(writtenSince).toHaveLength(2);
    if (ENGINE === 'sqlite') {
      // Not the due date's range: every overdue task (without statistics SQLite took it).
      for (const read of writtenSince) {
        expect(usesIndex(read.plan, 'tasks_updated_idx'), read.plan.join('\n')).toBe(true);
      }
    }
  });

  describe('the task list filters and sorts (issue 22): an index, never a scan of tasks', () => {
    const now = new Date();
    const filters: Array<[string, TaskFilter]> = [
      ['search', { words: ['bulk', '12'] }],
      ['search, a member', { words: ['task'] }],
      ['assignee', { assigneeId: 'member' }],
      ['priority', { priorities: ['High', 'Medium'] }],
      ['label', { labelIds: ['label'] }],
      ['due overdue', { due: dueWindow('overdue', 'UTC', now) }],
      ['due today', { due: dueWindow('today', 'Europe/Paris', now) }],
      ['due week', { due: dueWindow('week', 'UTC', now) }],
      ['due later', { due: dueWindow('later', 'UTC', now) }],
      [
        'everything at once',
        {
          words: ['bulk'],
          assigneeId: 'member',
          priorities: ['High'],
          labelIds: ['label'],
          due: dueWindow('week', 'UTC', now),
        },
      ],
    ];
    /**
     * No table read whole. The ids a filter starts from (a label's tasks, the search matches)
     * are read from an index into a small list, which SQLite then walks ("SCAN carrying").
     */
    const expectNoTableScan = ({ sql: text, plan }: Planned) => {
      // task_counts is the nine rows of every task's counts by status and priority.
      const scans = fullScans(plan).filter(
        (line) =>
          !/^SCAN (carrying|found|task_counts)$/.test(line.trim()) &&
          !/Seq Scan on task_counts\b/.test(line),
      );
      expect(scans, `${text}\n${plan.join('\n')}`).toEqual([]);
    };
    let labelId: string;
    const resolve = (filter: TaskFilter): TaskFilter => ({
      ...filter,
      ...(filter.assigneeId && { assigneeId: member().id }),
      ...(filter.labelIds && { labelIds: [labelId] }),
    });

    beforeAll(async () => {
      labelId = randomUUID();
      await ctx.db
        .insertInto('labels')
        .values({ id: labelId, name: 'Plan', name_key: 'plan', color: '#000000', created_at: '' })
        .execute();
      await ctx.db
        .insertInto('task_labels')
        .values(newest.slice(0, 40).map((row) => ({ task_id: row.id, label_id: labelId })))
        .execute();
      if (ENGINE === 'postgres') await sql`vacuum analyze`.execute(ctx.db);
    });

    it.each(TASK_SORTS)(
      'sort=%s: read in order from its index, first and later pages',
      async (sort) => {
        const first = await listTaskPage(ctx.db, {}, {}, { sort, order: 'desc', limit: 10 });
        for (const after of [undefined, first.at(-1)!.pageKey]) {
          for (const order of ['asc', 'desc'] as const) {
            const [page] = await plansOf(ctx.db, (db) =>
              listTaskPage(db, {}, {}, { sort, order, limit: 101, after }),
            );
            expectPlan(page!, { indexes: [SORT_INDEX[sort]] });
          }
        }
      },
    );

    onlyOn('sqlite', 'PostgreSQL combines its indexes from its own statistics').it(
      'a due window with a priority: counted and paged from one covering index, no task row read',
      async () => {
        const filter: TaskFilter = { priorities: ['High'], due: dueWindow('week', 'UTC', now) };
        const [counts] = await plansOf(ctx.db, (db) => countTasksByStatus(db, {}, filter));
        const [page] = await plansOf(ctx.db, (db) =>
          listTaskPage(db, {}, filter, { sort: 'createdAt', order: 'desc', limit: 101 }),
        );
        for (const planned of [counts!, page!]) {
          expect(planned.plan.join('\n'), planned.sql).toMatch(
            /SEARCH tasks USING COVERING INDEX tasks_due_filters_idx \(due_date>\? AND due_date<\?\)/,
          );
        }
      },
    );

    onlyOn('sqlite', 'PostgreSQL combines its indexes from its own statistics').it(
      'a filter walked in any sort order reads that sort index alone, and its count no task row',
      async () => {
        const filter: TaskFilter = { priorities: ['Low'], due: dueWindow('overdue', 'UTC', now) };
        for (const sort of ['updatedAt', 'title', 'priority'] as const) {
          const [page] = await plansOf(ctx.db, (db) =>
            listTaskPage(db, {}, filter, { sort, order: 'desc', limit: 101, walkSortIndex: true }),
          );
          // The priority sort reads the asked priorities' ranges of its index, no other's.
          const read = sort === 'priority' ? 'SEARCH' : 'SCAN';
          expect(page!.plan.join('\n'), page!.sql).toMatch(
            new RegExp(`${read} tasks USING COVERING INDEX ${SORT_INDEX[sort]}\\b`),
          );
          expect(sorts(page!.plan), page!.sql).toEqual([]);
        }
        const [counts] = await plansOf(ctx.db, (db) => countTasksByStatus(db, {}, filter));
        expect(counts!.plan.join('\n'), counts!.sql).toMatch(
          /SEARCH tasks USING COVERING INDEX tasks_status_due_idx \(status=\? AND due_date<\?\)/,
        );
      },
    );

    onlyOn('sqlite', 'PostgreSQL reads its matches from the tasks it joins').it(
      "a search by last update walks that order's index, checking each task's full-text row id",
      async () => {
        for (const status of [undefined, 'Pending'] as const) {
          const planned = await plansOf(ctx.db, (db) =>
            listTaskPage(
              db,
              {},
              { words: ['bulk'], status },
              { sort: 'updatedAt', order: 'desc', limit: 101, walkSortIndex: true },
            ),
          );
          // (The matches' subquery is recorded on its own too, as Kysely builds it.)
          const page = planned.find((query) => /order by/.test(query.sql));
          const plan = page!.plan.join('\n');
          expect(plan, page!.sql).toMatch(/SCAN tasks USING COVERING INDEX tasks_updated_idx\b/);
          // The matches read once into a list, not looked up again for each task walked; each
          // task's row id is in the index (migration 608): no key is read on the way.
          expect(plan).toMatch(/LIST SUBQUERY/);
          expect(plan).not.toMatch(/task_search_keys/);
          expect(sorts(page!.plan)).toEqual([]);
          // The status tab is checked before the list is looked into.
          if (status) {
            expect(page!.sql.indexOf('+tasks.status')).toBeGreaterThan(0);
            expect(page!.sql.indexOf('+tasks.status')).toBeLessThan(
              page!.sql.indexOf('+tasks.search_id'),
            );
          }
        }
      },
    );

    onlyOn('sqlite', 'PostgreSQL reads its matches from the tasks it joins').it(
      "a broad search in due-date, priority or title order walks its keys' index for that order",
      async () => {
        const indexes = {
          dueDate: 'task_search_keys_due_idx',
          priority: 'task_search_keys_priority_idx',
          title: 'task_search_keys_title_idx',
        } as const;
        const filters: TaskFilter[] = [
          { words: ['bulk'] },
          { words: ['bulk'], status: 'Pending', priorities: ['High', 'Low'] },
          { words: ['bulk'], due: dueWindow('overdue', 'UTC', now) },
          { words: ['bulk'], priorities: ['Medium'], due: dueWindow('later', 'UTC', now) },
        ];
        // In due-date order, one priority's keys alone are walked, by due date (2026-11-29-611).
        const indexFor = (sort: keyof typeof indexes, filter: TaskFilter) =>
          sort === 'dueDate' && filter.priorities?.length === 1
            ? 'task_search_keys_priority_due_idx'
            : indexes[sort];
        const version = Number(
          (await ctx.db.selectFrom('data_version').select('version').executeTakeFirst())?.version,
        );
        for (const sort of Object.keys(indexes) as Array<keyof typeof indexes>) {
          for (const filter of filters) {
            const index = indexFor(sort, filter);
            for (const order of ['asc', 'desc'] as const) {
              const planned = await plansOf(ctx.db, (db) =>
                listTaskPage(db, {}, filter, {
                  sort,
                  order,
                  limit: 101,
                  walkSortIndex: true,
                  walkCap: TASKS,
                  dataVersion: version,
                }),
              );
              const walk = planned.find((query) => /from \(select/.test(query.sql));
              const plan = walk?.plan.join('\n') ?? '';
              // The keys read in order from the covering index (a range of it for a due
              // window or the asked priorities), each checked against the matches read once
              // into a list; no task row, no key looked up by its row id, no sort of them.
              expect(plan, walk?.sql).toMatch(
                new RegExp(`(SCAN|SEARCH) k USING COVERING INDEX ${index}\\b`),
              );
              expect(plan).toMatch(/LIST SUBQUERY/);
              expect(plan).not.toMatch(/\btasks\b|INTEGER PRIMARY KEY/);
              // (SCAN w: the walked keys, handed over one by one as the index gives them.)
              expect(fullScans(walk!.plan).filter((line) => line.trim() !== 'SCAN w')).toEqual([]);
              expect(sorts(walk!.plan), walk!.sql).toEqual([]);
            }
          }
        }
        // The list decides: every task matches `bulk`, so a page of 101 is found within the
        // first keys walked; `bulk 12` matches a few ("Bulk task 12", "Bulk task 120"…), read
        // first.
        for (const [words, walks] of [
          [['bulk'], true],
          [['bulk', '12'], false],
        ] as const) {
          const planned = await plansOf(ctx.db, (db) =>
            listTaskPageWithCounts(db, {}, { words: [...words] }, undefined, {
              sort: 'dueDate',
              order: 'asc',
              limit: 101,
            }),
          );
          const walk = planned.some((query) => /from \(select/.test(query.sql));
          expect(walk, words.join(' ')).toBe(walks);
        }
      },
    );

    onlyOn('sqlite', 'FTS5 hands its matches over in row id order; PostgreSQL sorts them').it(
      "a search's newest-first page: the index's top read in its own order, then a range of it",
      async () => {
        // The twelve newest tasks created in one second: a page of 3 and its look-ahead are all
        // in that second, so the rest of it (a range of ids) is read too, for the admin.
        const moved = await ctx.db
          .selectFrom('tasks')
          .select(['id', 'created_at'])
          .orderBy('created_at', 'desc')
          .limit(12)
          .execute();
        const setCreated = (id: string, createdAt: string) =>
          ctx.db.updateTable('tasks').set({ created_at: createdAt }).where('id', '=', id).execute();
        for (const { id } of moved) await setCreated(id, '2099-01-01T00:00:00.000Z');
        for (const scope of [{}, { assigneeId: member().id }]) {
          const planned = await plansOf(ctx.db, (db) =>
            listTaskPage(
              db,
              scope,
              { words: ['bulk'] },
              { sort: 'createdAt', order: 'desc', limit: 3 },
            ),
          );
          const searches = planned.filter((query) => /task_search match/.test(query.sql));
          const top = searches.find((query) =>
            /order by "task_search"."rowid" desc/.test(query.sql),
          );
          const range = searches.find((query) => /"task_search"."rowid" >= /.test(query.sql));
          // No sort: FTS5 gives the matches highest id first, and the page stops after 3. (M2:
          // a MATCH on the table's own column, after `document` and `facets`.)
          expect(top?.plan.join('\n')).toMatch(/SCAN task_search VIRTUAL TABLE INDEX \d+:M2\b/);
          expect(top!.plan.join('\n')).not.toMatch(/TEMP B-TREE/);
          // The row id bounds go to FTS5 (">" and "<" in its plan), which reads only that range.
          // (A member has fewer than a page and its look-ahead of those twelve: all were read.)
          if (!('assigneeId' in scope)) {
            expect(range?.plan.join('\n')).toMatch(/VIRTUAL TABLE INDEX \d+:M2></);
          }
        }
        for (const { id, created_at } of moved) await setCreated(id, created_at);
      },
    );

    onlyOn('postgres', 'SQLite reads a search from its full-text index whatever the count').it(
      "an admin's rare search: its matches read first from the index, not each task's text checked",
      async () => {
        const page = { sort: 'createdAt' as const, order: 'desc' as const, limit: 101 };
        // "Bulk task 12", "Bulk task 120"…: a few of the 4,000.
        const rare = { words: ['bulk', '12'] };
        const planned = await plansOf(ctx.db, (db) =>
          listTaskPageWithCounts(db, {}, rare, undefined, page),
        );
        const ordered = planned.find((query) => /order by/i.test(query.sql));
        const plan = ordered!.plan.join('\n');
        expect(plan).toMatch(/task_search_document_idx/);
        expect(plan).not.toMatch(/Index Scan using task_search_pkey/);
        // Kept apart from the outer query (at 4,000 tasks the planner reads the index anyway;
        // at 100,000 it walked 43,000 tasks for a rare word without this: docs/performance.md).
        expect(ordered!.sql).toMatch(/^with "found" as materialized \(/i);
        // A word every task has: the walk in the sort's order is the better way, left to the planner.
        const common = await plansOf(ctx.db, (db) =>
          listTaskPageWithCounts(db, {}, { words: ['bulk'] }, undefined, page),
        );
        expect(common.find((query) => /order by/i.test(query.sql))!.sql).not.toMatch(
          /materialized/i,
        );
        const direct = await listTaskPage(ctx.db, {}, rare, page);
        const result = await listTaskPageWithCounts(ctx.db, {}, rare, undefined, page);
        expect(result.rows).toEqual(direct);
        expect(result.rows.length).toBe(Math.min(page.limit, result.counts.total));
      },
    );

    it.each(filters)('%s: the page and the status counts', async (name, raw) => {
      const filter = resolve(raw);
      const scope = name.endsWith('a member') ? { assigneeId: member().id } : {};
      for (const sort of ['createdAt', 'dueDate'] as const) {
        const [page] = await plansOf(ctx.db, (db) =>
          listTaskPage(db, scope, filter, { sort, order: 'desc', limit: 101 }),
        );
        // Sorting the rows a filter found is allowed: reading every task is not.
        expectNoTableScan(page!);
      }
      const counted = await plansOf(ctx.db, (db) => countTasksByStatus(db, scope, filter));
      for (const query of counted) expectNoTableScan(query);
      if (filter.words) {
        const plan = (
          await plansOf(ctx.db, (db) =>
            listTaskPage(db, scope, filter, { sort: 'createdAt', order: 'desc', limit: 101 }),
          )
        )
          // The statement sent last: the capture also records each subquery built before it.
          .at(-1)!
          .plan.join('\n');
        // The matches come from the full-text index, each task then by primary key. PostgreSQL
        // may start from a person's few assignments (or a label's tasks) instead and check the
        // text of those: no table is read whole either way (checked above).
        const narrower = (scope.assigneeId ?? filter.assigneeId ?? filter.labelIds) !== undefined;
        if (ENGINE === 'sqlite' || !narrower) {
          expect(plan, plan).toMatch(
            ENGINE === 'sqlite' ? /VIRTUAL TABLE INDEX/ : /task_search_document_idx/,
          );
        }
      }
    });
  });
});

describe(`the task list on SQLite: how a filter's page is read follows how many match (${ENGINE})`, () => {
  let ctx: TestContext;
  let newest: TaskRow[];
  const page = { sort: 'createdAt' as const, order: 'desc' as const, limit: 101 };
  /** The plan of the page's query (the one that orders) of a listTaskPageWithCounts call. */
  async function pagePlan(filter: TaskFilter) {
    const planned = await plansOf(ctx.db, (db) =>
      listTaskPageWithCounts(db, {}, filter, undefined, page),
    );
    const query = planned.find((q) => /order by/i.test(q.sql));
    expect(query, planned.map((q) => q.sql).join('\n')).toBeDefined();
    return query!.plan;
  }

  beforeAll(async () => {
    ctx = await createTestContext();
    const members = await seedMembers(ctx.db, 10);
    await seedTasks(ctx.db, {
      count: 1000,
      createdBy: members[0]!.id,
      assign: (i) => [members[i % 10]!.id],
    });
    newest = await listTaskRows(ctx.db, {}, { limit: 1 });
  });
  afterAll(() => ctx.close());

  onlyOn('sqlite', 'PostgreSQL weighs this from its own statistics').it(
    'a broad filter walks the sort index and stops at the page; a narrow one reads its own index',
    async () => {
      // Every priority: all 1,000 match, so 101 are found in the first 101 of the sort's order.
      const broad: TaskFilter = { priorities: ['High', 'Medium', 'Low'] };
      const walked = await pagePlan(broad);
      expect(usesIndex(walked, 'tasks_created_idx'), walked.join('\n')).toBe(true);
      expect(sorts(walked)).toEqual([]);
      // The walk checks priority, status and due date in the index, reading no task row
      // (migration 2026-11-27-602).
      for (const filter of [
        broad,
        { due: { before: '2099-01-01T00:00:00.000Z', openOnly: true } },
      ]) {
        const plan = await pagePlan(filter);
        expect(plan.join('\n')).toMatch(/SCAN tasks USING COVERING INDEX tasks_created_idx/);
      }
      // The same rows as read the other way.
      const result = await listTaskPageWithCounts(ctx.db, {}, broad, undefined, page);
      const direct = await listTaskPage(ctx.db, {}, broad, page);
      expect(result.rows.map(({ id }) => id)).toEqual(direct.map(({ id }) => id));
      expect(result.counts.total).toBe(1000);

      // One task due at an instant of its own: one match, read from the due-date index.
      const due = '2031-03-04T05:06:07.890Z';
      await ctx.db
        .updateTable('tasks')
        .set({ due_date: due })
        .where('id', '=', newest[0]!.id)
        .execute();
      const narrow: TaskFilter = {
        due: { from: due, before: new Date(Date.parse(due) + 1).toISOString() },
      };
      const read = await pagePlan(narrow);
      expect(
        read.some((line) =>
          /USING (COVERING )?INDEX tasks_(status_due|due_date|due_filters)_idx/.test(line),
        ),
        read.join('\n'),
      ).toBe(true);
      const one = await listTaskPageWithCounts(ctx.db, {}, narrow, undefined, page);
      expect(one.rows.map(({ id }) => id)).toContain(newest[0]!.id);
      expect(one.counts.total).toBe(one.rows.length);
    },
  );
});

describe(`queries per request stay the same whatever the page size (${ENGINE})`, () => {
  let ctx: TestContext;
  let capture: ReturnType<typeof captureQueries>;
  let api: ReturnType<typeof request>;

  beforeAll(async () => {
    ctx = await createTestContext();
    capture = captureQueries(ctx.db);
    api = request(
      createApp({ db: capture.db, config: testConfig, logger: pino({ level: 'silent' }) }),
    );
  });
  afterAll(() => ctx.close());

  /** The number of queries one request sends, and its answer. */
  async function queriesOf(path: string, auth: Record<string, string>) {
    capture.take();
    const res = await api.get(path).set(auth).expect(200);
    return { count: capture.take().length, body: res.body };
  }

  it('GET /api/tasks with 100 and with 500 tasks on the page', async () => {
    const admin = await signUp(ctx, 'admin');
    const member = await signUp(ctx, 'member');
    const seed = (count: number) =>
      seedTasks(ctx.db, { count, createdBy: admin.id, assign: () => [member.id] });
    await seed(100);
    const small = await queriesOf('/api/tasks?limit=500', admin.auth);
    const smallMember = await queriesOf('/api/tasks?limit=500', member.auth);
    await seed(400);
    const large = await queriesOf('/api/tasks?limit=500', admin.auth);
    const largeMember = await queriesOf('/api/tasks?limit=500', member.auth);
    expect(small.body.tasks).toHaveLength(100);
    expect(large.body.tasks).toHaveLength(500);
    expect(largeMember.body.tasks).toHaveLength(500);
    expect(large.count).toBe(small.count);
    expect(largeMember.count).toBe(smallMember.count);
    // The data version (the ETag, issue 19), the page, the summary, five for assignees,
    // checklists, attachments, labels and files; the rest is the sign-in check.
    expect(large.count).toBeLessThanOrEqual(9);
  });

  it('a tick, a resent checklist and a status change read the items once, within the task', async () => {
    const admin = await signUp(ctx, 'admin');
    const member = await signUp(ctx, 'member');
    const task = await createTask(ctx, admin, [member.id], {
      todoChecklist: [
        { text: 'Draft', completed: false },
        { text: 'Review', completed: false },
      ],
    });
    const [first, second] = task.todoChecklist;
    const writes: Array<[() => request.Test, boolean[], string]> = [
      [
        () => api.patch(`/api/tasks/${task._id}/todo/${second!._id}`).send({ completed: true }),
        [false, true],
        'In Progress',
      ],
      [
        () => api.patch(`/api/tasks/${task._id}/todo/${first!._id}`).send({ completed: true }),
        [true, true],
        'Completed',
      ],
      [
        () =>
          api.put(`/api/tasks/${task._id}/todo`).send({
            todoChecklist: [
              { text: 'Draft', completed: true },
              { text: 'Review', completed: false },
            ],
          }),
        [true, false],
        'In Progress',
      ],
      [
        () => api.put(`/api/tasks/${task._id}/status`).send({ status: 'Pending' }),
        [false, false],
        'Pending',
      ],
    ];
    for (const [send, flags, status] of writes) {
      capture.take();
      const res = await send().set(member.auth).expect(200);
      expect(
        res.body.task.todoChecklist.map((each: { completed: boolean }) => each.completed),
      ).toEqual(flags);
      expect(res.body.task.status).toBe(status);
      // The task is read with its items (as JSON) before the write; no second read of the items.
      const itemReads = capture
        .take()
        .filter(
          ({ sql }) =>
            /^\s*select\b/i.test(sql) && /\btodo_items\b/.test(sql) && !/json/i.test(sql),
        );
      expect(itemReads.map(({ sql }) => sql)).toEqual([]);
      const stored = (await api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200)).body;
      expect(stored.todoChecklist.map((each: { completed: boolean }) => each.completed)).toEqual(
        flags,
      );
      expect(stored.status).toBe(status);
    }
  });

  it('GET /api/users with 100 and with 500 members on the page', async () => {
    const admin = await signUp(ctx, 'admin');
    await seedMembers(ctx.db, 100, 'Counted');
    const small = await queriesOf('/api/users?limit=500&search=counted', admin.auth);
    await seedMembers(ctx.db, 400, 'Counted more');
    const large = await queriesOf('/api/users?limit=500&search=counted', admin.auth);
    expect(small.body).toHaveLength(100);
    expect(large.body).toHaveLength(500);
    expect(large.count).toBe(small.count);
    expect(large.count).toBeLessThanOrEqual(5);
  });
});
