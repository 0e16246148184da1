import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/database.js';
import type { Database } from '../../src/db/tables.js';
import { listTaskRows } from '../../src/tasks/repository.js';
import { seedMembers, seedTasks } from '../helpers/bulk-seed.js';
import { openDatabaseBefore } from '../helpers/databases.js';
import { tempDir } from '../helpers/server-process.js';
import { ENGINE } from '../helpers/test-app.js';

/**
 * `task_assignees.task_created_at` copies its task's `created_at` so that a member's page comes
 * in order from an index (migration 2026-11-24-003). A wrong copy would put a member's tasks out
 * of order or skip some across pages, so it must hold whoever writes: the migration's fill, the
 * API, a hand-written INSERT or UPDATE.
 */

/** Every assignment whose copy differs from its task's creation time. */
async function wrongCopies(db: Kysely<Database>) {
  return db
    .selectFrom('task_assignees as ta')
    .innerJoin('tasks', 'tasks.id', 'ta.task_id')
    .select(['ta.task_id', 'ta.user_id', 'ta.task_created_at', 'tasks.created_at'])
    .where(sql<boolean>`ta.task_created_at is distinct from tasks.created_at`)
    .execute();
}

describe(`assignments carry their task's creation time (${ENGINE})`, { timeout: 60_000 }, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function databaseBefore(migration: string) {
    const opened = await openDatabaseBefore(tempDir(), migration);
    cleanups.push(opened.drop);
    return opened;
  }

  it('the migration fills the copies, and the triggers keep them exact after it', async () => {
    const { handle, applied } = await databaseBefore('2026-11-24-003-assignee-order');
    const db = handle.db;
    const members = await seedMembers(db, 6);
    const seeded = await seedTasks(db, {
      count: 60,
      createdBy: members[0]!.id,
      assign: (i) => [members[i % 6]!.id, members[(i + 1) % 6]!.id],
      sameTimeGroups: 4,
    });

    expect(await migrateToLatest(handle)).toEqual(applied);
    expect(await db.selectFrom('task_assignees').select('task_id').execute()).toHaveLength(120);
    expect(await wrongCopies(db)).toEqual([]);

    // A member's pages, newest first with ties broken by id, as the tasks themselves say.
    const member = members[2]!.id;
    const expected = seeded
      .filter((task) => task.assigneeIds.includes(member))
      .sort((a, b) =>
        a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
      )
      .map((task) => task.id);
    const walked: string[] = [];
    let before: readonly [string, string] | undefined;
    for (;;) {
      const page = await listTaskRows(db, { assigneeId: member }, { limit: 7, before });
      walked.push(...page.map((row) => row.id));
      if (page.length < 7) break;
      before = [page.at(-1)!.created_at, page.at(-1)!.id];
    }
    expect(walked).toEqual(expected);

    // A hand-written INSERT that gives no copy, or a wrong one, gets the task's time.
    const [first, second] = seeded;
    await db.deleteFrom('task_assignees').where('task_id', 'in', [first!.id, second!.id]).execute();
    await db
      .insertInto('task_assignees')
      .values([
        { task_id: first!.id, user_id: members[5]!.id, position: 0 },
        {
          task_id: second!.id,
          user_id: members[5]!.id,
          position: 0,
          task_created_at: '1999-01-01T00:00:00.000Z',
        },
      ])
      .execute();
    // An UPDATE of the copy alone is put back; moving an assignment takes the new task's time.
    await db
      .updateTable('task_assignees')
      .set({ task_created_at: '2100-01-01T00:00:00.000Z' })
      .where('user_id', '=', members[3]!.id)
      .execute();
    await db
      .updateTable('task_assignees')
      .set({ task_id: seeded[12]!.id })
      .where('task_id', '=', first!.id)
      .execute();
    // A task whose creation time is changed by hand passes it on to its assignments.
    await db
      .updateTable('tasks')
      .set({ created_at: '2001-02-03T04:05:06.000Z' })
      .where('id', 'in', [seeded[20]!.id, seeded[21]!.id])
      .execute();
    expect(await wrongCopies(db)).toEqual([]);
    const passedOn = await db
      .selectFrom('task_assignees')
      .select('task_created_at')
      .where('task_id', '=', seeded[20]!.id)
      .execute();
    expect(passedOn.map((row) => row.task_created_at)).toEqual([
      '2001-02-03T04:05:06.000Z',
      '2001-02-03T04:05:06.000Z',
    ]);
  });

  it('an assignment cannot be written for a task that does not exist', async () => {
    const { handle } = await databaseBefore('2026-11-24-003-assignee-order');
    await migrateToLatest(handle);
    const [member] = await seedMembers(handle.db, 1);
    await expect(
      handle.db
        .insertInto('task_assignees')
        .values({ task_id: randomUUID(), user_id: member!.id, position: 0 })
        .execute(),
    ).rejects.toThrow();
    expect(await handle.db.selectFrom('task_assignees').selectAll().execute()).toEqual([]);
  });
});
