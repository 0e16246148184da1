import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/database.js';
import type { TaskRow } from '../../src/tasks/repository.js';
import { taskCardDocuments, taskDocuments } from '../../src/tasks/documents.js';
import { seedMembers, seedTasks } from '../helpers/bulk-seed.js';
import { openDatabaseBefore } from '../helpers/databases.js';
import { onlyOn } from '../helpers/only-on.js';
import { tempDir } from '../helpers/server-process.js';
import { cardOf, hydrateTasks } from '../helpers/task-reference.js';
import { ENGINE } from '../helpers/test-app.js';

/**
 * Migration 2026-11-29-614 (SQLite): a write forgets a task's stored texts by setting them to
 * NULL, and the next text stored fills the same row, rather than deleting rows and inserting new
 * ones at the table's end (fewer pages written per tick, issue 19). The store it replaces is
 * dropped: texts are built again as tasks are read.
 */
onlyOn('sqlite', "SQLite's stored task texts (PostgreSQL forgets them at commit)").describe(
  `stored task texts are forgotten in place (${ENGINE})`,
  { timeout: 60_000 },
  () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    });

    it('upgrades a store of texts, and every answer stays the task as it stands', async () => {
      const opened = await openDatabaseBefore(
        tempDir(),
        '2026-11-29-614-task-documents-kept-in-place',
      );
      cleanups.push(opened.drop);
      const { db } = opened.handle;
      const [admin, member] = await seedMembers(db, 2);
      const seeded = await seedTasks(db, {
        count: 3,
        createdBy: admin!.id,
        assign: () => [member!.id],
      });
      const ids = seeded.map((task) => task.id);
      const reference = async () => {
        const rows = await db.selectFrom('tasks').selectAll().where('id', 'in', ids).execute();
        const ordered = ids.flatMap((id) => rows.filter((row) => row.id === id)) as TaskRow[];
        return hydrateTasks(db, ordered);
      };
      const expectCurrent = async () => {
        const expected = await reference();
        for (let read = 0; read < 2; read += 1) {
          expect((await taskDocuments(db, ids)).map((doc) => JSON.parse(doc))).toEqual(expected);
          expect((await taskCardDocuments(db, ids)).map((doc) => JSON.parse(doc))).toEqual(
            expected.map(cardOf),
          );
        }
      };
      await expectCurrent();
      expect(await db.selectFrom('task_documents').select('task_id').execute()).toHaveLength(6);

      await migrateToLatest(opened.handle);
      expect(await db.selectFrom('task_documents').select('task_id').execute()).toEqual([]);
      await expectCurrent();

      const rowids = () =>
        sql<{ rowid: number; task_id: string; shape: string; kept: number }>`
          select rowid, task_id, shape, document is not null as kept from task_documents
          order by task_id, shape`
          .execute(db)
          .then((result) => result.rows);
      const before = await rowids();
      expect(before.map((row) => row.kept)).toEqual([1, 1, 1, 1, 1, 1]);
      // A tick by hand: both texts of that task are forgotten, their rows kept; the others stay.
      const [first] = seeded;
      await sql`update todo_items set completed = 1 - completed
        where id = (select id from todo_items where task_id = ${first!.id} order by position limit 1)`.execute(
        db,
      );
      const forgotten = await rowids();
      expect(forgotten.map(({ rowid, task_id }) => ({ rowid, task_id }))).toEqual(
        before.map(({ rowid, task_id }) => ({ rowid, task_id })),
      );
      expect(forgotten.filter((row) => !row.kept).map((row) => row.task_id)).toEqual([
        first!.id,
        first!.id,
      ]);
      // Read again: built as the task now stands, and stored in the same rows.
      await expectCurrent();
      expect(await rowids()).toEqual(before);
      // A deleted task's rows go with it.
      await db.deleteFrom('tasks').where('id', '=', first!.id).execute();
      expect((await rowids()).map((row) => row.task_id)).not.toContain(first!.id);
    });
  },
);
