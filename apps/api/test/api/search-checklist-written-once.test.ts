import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task, TaskListResponse } from '@task-manager/shared';
import type { Database } from '../../src/db/tables.js';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { onlyOn } from '../helpers/only-on.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * A checklist written whole (a new task's, an edit's, a reorder) writes the task's full-text row
 * once, after all its items (SQLite: migration 2026-11-29-613). What the search finds must be
 * exactly the checklist as it ends up, whatever was written in between.
 */
describe(`search over checklists written whole (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const found = async (q: string) =>
    (
      (await ctx.api.get('/api/tasks').query({ q }).set(admin.auth).expect(200))
        .body as TaskListResponse
    ).tasks.map((task) => task._id);
  /** Thirty items, each with a word of its own (`<prefix>1` … `<prefix>30`). */
  const items = (prefix: string) =>
    Array.from({ length: 30 }, (_, i) => ({ text: `Step ${prefix}${i + 1} of the list` }));
  /** SQLite: no task is left waiting for its row once a write has ended. */
  const nothingDeferred = async () => {
    if (ENGINE !== 'sqlite') return;
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from task_search_deferred`.execute(ctx.db);
    expect(rows[0]!.n).toBe(0);
  };

  it('finds every item of a task created with thirty, the first and the last alike', async () => {
    const task = await createTask(ctx, admin, [member.id], {
      title: 'Inventory',
      todoChecklist: items('alpha'),
    });
    for (const word of ['alpha1', 'alpha15', 'alpha30', 'inventory']) {
      expect(await found(word), word).toEqual([task._id]);
    }
    await nothingDeferred();
  });

  it('an edited checklist: the new items found, the removed ones no longer', async () => {
    const task = await createTask(ctx, admin, [member.id], { todoChecklist: items('beta') });
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ todoChecklist: [...items('gamma'), { text: 'beta7 stays' }] })
      .expect(200);
    expect(await found('gamma1')).toEqual([task._id]);
    expect(await found('gamma30')).toEqual([task._id]);
    expect(await found('beta7')).toEqual([task._id]);
    expect(await found('beta8')).toEqual([]);
    await nothingDeferred();

    // The checklist route, and a reorder: the row is written again each time, all of it.
    await ctx.api
      .put(`/api/tasks/${task._id}/todo`)
      .set(admin.auth)
      .send({ todoChecklist: items('delta') })
      .expect(200);
    expect(await found('delta30')).toEqual([task._id]);
    expect(await found('gamma1')).toEqual([]);
    const current = (await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200))
      .body as Task;
    await ctx.api
      .put(`/api/tasks/${task._id}/todo/order`)
      .set(admin.auth)
      .send({ ids: current.todoChecklist.map((item) => item._id).reverse() })
      .expect(200);
    expect(await found('delta1')).toEqual([task._id]);
    expect(await found('delta30')).toEqual([task._id]);
    await nothingDeferred();
  });

  it("a checklist cut to one item: the others' words are gone, the title still found", async () => {
    const task = await createTask(ctx, admin, [member.id], {
      title: 'Epsilonic errand',
      todoChecklist: items('epsilon'),
    });
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ todoChecklist: [{ text: 'epsilon1 alone' }] })
      .expect(200);
    expect(await found('epsilon3')).toEqual([]);
    expect(await found('epsilon1')).toEqual([task._id]);
    expect(await found('epsilonic')).toEqual([task._id]);
    await nothingDeferred();
  });

  it('a refused edit leaves the search as it was', async () => {
    const task = await createTask(ctx, admin, [member.id], { todoChecklist: items('zeta') });
    // A member may tick, not rewrite the list: refused inside the transaction, all rolled back.
    await ctx.api
      .put(`/api/tasks/${task._id}/todo`)
      .set(member.auth)
      .send({ todoChecklist: items('eta') })
      .expect(400);
    expect(await found('zeta30')).toEqual([task._id]);
    expect(await found('eta1')).toEqual([]);
    await nothingDeferred();
  });

  onlyOn('sqlite', 'the deferral table is SQLite’s').it(
    'while a task is deferred its items leave the row alone; ending it writes the row once',
    async () => {
      const task = await createTask(ctx, admin, [member.id], { title: 'Theta' });
      const matches = async (word: string, db: Kysely<Database> = ctx.db) => {
        const { rows } = await sql<{ n: number }>`
          select count(*) as n from task_search where task_search match ${word}`.execute(db);
        return rows[0]!.n;
      };
      await ctx.db.transaction().execute(async (trx) => {
        await sql`insert into task_search_deferred (task_id) values (${task._id})`.execute(trx);
        await sql`insert into todo_items (id, task_id, position, text, completed)
          values (${crypto.randomUUID()}, ${task._id}, 9, 'thetaword', 0)`.execute(trx);
        expect(await matches('thetaword', trx)).toBe(0);
        await sql`delete from task_search_deferred where task_id = ${task._id}`.execute(trx);
        expect(await matches('thetaword', trx)).toBe(1);
      });
      // Not deferred, an item's insert writes the row at once, as before.
      await sql`insert into todo_items (id, task_id, position, text, completed)
        values (${crypto.randomUUID()}, ${task._id}, 10, 'iotaword', 0)`.execute(ctx.db);
      expect(await matches('iotaword')).toBe(1);
    },
  );
});
