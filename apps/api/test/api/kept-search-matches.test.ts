import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Task, TaskListResponse } from '@task-manager/shared';
import { createTask, signUp, taskRow, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';
import { captureQueries } from '../helpers/query-capture.js';
import { onlyOn } from '../helpers/only-on.js';
import { listTaskPage } from '../../src/tasks/repository.js';

/**
 * SQLite keeps a search's matches between pages while no task's searched text changes
 * (tasks/search-matches.ts, migration 2026-11-28-609). Every page asked here is asked twice in
 * a row, so the second is answered from what is kept; after each kind of write the answers must
 * still be exactly what the words match. PostgreSQL keeps nothing: the same answers, read anew.
 */
describe(`a search's kept matches (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let mia: Session;
  const made: Record<string, Task> = {};

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    mia = await signUp(ctx, 'member');
    const titles: Array<[string, string, string]> = [
      ['zeta', 'Zeta kiwi harvest', 'Pick them'],
      ['alpha', 'Alpha orchard', 'Plant a kiwi row'],
      ['mango', 'Mango stand', 'Nothing to see'],
      ['beta', 'beta KIWI tasting', 'Lower case title'],
      ['gamma', 'Gamma kiwi jam', 'Boil'],
      ['delta', 'Delta shed', 'Tools only'],
    ];
    for (const [name, title, description] of titles) {
      made[name] = await createTask(ctx, admin, [mia.id], {
        title,
        description,
        todoChecklist: [{ text: 'First' }, { text: 'Second' }],
      });
    }
  });
  afterAll(() => ctx.close());

  const list = async (query: Record<string, string>, session = admin) =>
    (await ctx.api.get('/api/tasks').query(query).set(session.auth).expect(200))
      .body as TaskListResponse;

  /** Every page of a query, following its cursor, asked twice each (the second from the kept). */
  const pages = async (query: Record<string, string>, session = admin) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const ask = { ...query, ...(cursor ? { cursor } : {}) };
      const first = await list(ask, session);
      const again = await list(ask, session);
      expect(again.tasks.map((task) => task._id)).toEqual(first.tasks.map((task) => task._id));
      ids.push(...again.tasks.map((task) => task._id));
      if (!again.nextCursor) return ids;
      cursor = again.nextCursor;
    }
  };

  /**
   * What the words match, in title order, from the default (newest first) search: a read of
   * the full-text index that keeps nothing.
   */
  const expected = async (status?: Task['status']) => {
    const { tasks } = await list({ q: 'kiwi', limit: '100' });
    return tasks
      .filter((task) => status === undefined || task.status === status)
      .map((task) => [task.title.toLowerCase(), task._id] as const)
      .sort(([a, ai], [b, bi]) => (a === b ? (ai < bi ? -1 : 1) : a < b ? -1 : 1))
      .map(([, id]) => id);
  };

  /** Title order both ways, paged by two, with and without a status tab. */
  const expectRight = async (status?: Task['status']) => {
    const byTitle = await expected(status);
    const tab: Record<string, string> = status ? { status } : {};
    expect(await pages({ q: 'kiwi', sort: 'title', order: 'asc', limit: '2', ...tab })).toEqual(
      byTitle,
    );
    expect(await pages({ q: 'kiwi', sort: 'title', order: 'desc', limit: '2', ...tab })).toEqual(
      [...byTitle].reverse(),
    );
    return byTitle;
  };

  const ids = (...names: string[]) => names.map((name) => made[name]!._id);

  it('answers every page right, kept or not, and follows each kind of write', async () => {
    expect(await expectRight()).toEqual(ids('alpha', 'beta', 'gamma', 'zeta'));

    // A title changed: the order follows.
    await ctx.api
      .put(`/api/tasks/${made.zeta!._id}`)
      .set(admin.auth)
      .send({ title: 'Aaa kiwi harvest' })
      .expect(200);
    expect(await expectRight()).toEqual(ids('zeta', 'alpha', 'beta', 'gamma'));

    // A checklist item's text: a task that did not match now does.
    await ctx.api
      .put(`/api/tasks/${made.mango!._id}`)
      .set(admin.auth)
      .send({ todoChecklist: [{ text: 'Buy kiwis' }] })
      .expect(200);
    expect(await expectRight()).toContain(made.mango!._id);

    // A tick changes the status, not the text: the status tabs follow all the same.
    await ctx.api
      .put(`/api/tasks/${made.gamma!._id}/todo`)
      .set(mia.auth)
      .send({
        todoChecklist: made.gamma!.todoChecklist.map((item) => ({ ...item, completed: true })),
      })
      .expect(200);
    expect(await expectRight('Completed')).toEqual(ids('gamma'));
    expect(await expectRight('Pending')).not.toContain(made.gamma!._id);

    // A comment's text is searched too.
    await ctx.api
      .post(`/api/tasks/${made.delta!._id}/comments`)
      .set(admin.auth)
      .send({ body: 'Store the kiwi crates here' })
      .expect(201);
    expect(await expectRight()).toContain(made.delta!._id);

    // A description no longer holding the word, and a task deleted: both leave.
    await ctx.api
      .put(`/api/tasks/${made.alpha!._id}`)
      .set(admin.auth)
      .send({ description: 'Plant a lemon row' })
      .expect(200);
    await ctx.api.delete(`/api/tasks/${made.beta!._id}`).set(admin.auth).expect(200);
    const now = await expectRight();
    expect(now).not.toContain(made.alpha!._id);
    expect(now).not.toContain(made.beta!._id);
    expect(now).toEqual(ids('zeta', 'delta', 'gamma', 'mango'));

    // A member's search is narrowed to their tasks on the way (never from another's kept).
    const other = await signUp(ctx, 'member');
    expect(await pages({ q: 'kiwi', sort: 'title', limit: '2' }, other)).toEqual([]);
    expect(await pages({ q: 'kiwi', sort: 'title', limit: '2' }, mia)).toEqual(now);
  });

  it('pages a search in last-update order and due-date order the same, kept or not', async () => {
    const { tasks } = await list({ q: 'kiwi', limit: '100' });
    const byUpdate = [...tasks]
      .sort((a, b) =>
        a.updatedAt === b.updatedAt ? (a._id < b._id ? 1 : -1) : a.updatedAt < b.updatedAt ? 1 : -1,
      )
      .map((task) => task._id);
    expect(await pages({ q: 'kiwi', sort: 'updatedAt', limit: '2' })).toEqual(byUpdate);
    const byDue = [...tasks]
      .sort((a, b) =>
        a.dueDate === b.dueDate ? (a._id < b._id ? -1 : 1) : a.dueDate < b.dueDate ? -1 : 1,
      )
      .map((task) => task._id);
    expect(await pages({ q: 'kiwi', sort: 'dueDate', order: 'asc', limit: '2' })).toEqual(byDue);
  });

  onlyOn('sqlite', 'PostgreSQL keeps no matches').it(
    'reads the kept matches the second time, and the index again once the text changes',
    async () => {
      const capture = captureQueries(ctx.db);
      const ways = () =>
        capture
          .take()
          .map(({ sql: text }) =>
            /^insert into temp\./.test(text)
              ? 'kept anew'
              : /^select .* from temp\.search_matches/.test(text)
                ? 'from kept'
                : /task_search match/.test(text)
                  ? 'from the index'
                  : undefined,
          )
          .filter((way) => way !== undefined);
      const page = () =>
        listTaskPage(
          capture.db,
          {},
          { words: ['kiwi'] },
          { sort: 'title', order: 'asc', limit: 2 },
        );
      const first = await page();
      expect(ways()).toEqual(['from the index']);
      expect(await page()).toEqual(first);
      expect(ways()).toEqual(['kept anew', 'from kept']);
      expect(await page()).toEqual(first);
      expect(ways()).toEqual(['from kept']);
      // A tick changes no searched text: still kept.
      await ctx.db.updateTable('todo_items').set({ completed: 1 }).execute();
      expect(await page()).toEqual(first);
      expect(ways()).toEqual(['from kept']);
      // A title does: filled again, with the new order.
      await ctx.db
        .updateTable('tasks')
        .set({ title: 'ZZZ kiwi last' })
        .where('id', '=', first[0]!.id)
        .execute();
      const moved = await page();
      expect(ways()).toEqual(['kept anew', 'from kept']);
      expect(moved.map((row) => row.id)).not.toContain(first[0]!.id);
      const { rows } = await sql<{ name: string }>`select name from sqlite_temp_master
        where type = 'table' and name like 'search_matches_%'`.execute(ctx.db);
      expect(rows.length).toBeGreaterThan(0);
    },
  );

  onlyOn('sqlite', 'PostgreSQL keeps no matches, and no text version').it(
    'moves the text version on every write to searched text, and on no other',
    async () => {
      const version = async () =>
        Number(
          (
            await ctx.db
              .selectFrom('search_text_version')
              .select('version')
              .executeTakeFirstOrThrow()
          ).version,
        );
      const task = await createTask(ctx, admin, [mia.id], { title: 'Version probe' });
      const item = task.todoChecklist[0]!._id;
      const moves = async (write: () => Promise<unknown>) => {
        const before = await version();
        await write();
        return (await version()) - before;
      };
      const tasks = () => ctx.db.updateTable('tasks').where('id', '=', task._id);
      const items = () => ctx.db.updateTable('todo_items').where('id', '=', item);
      // Searched text, each trigger on its own.
      expect(await moves(() => tasks().set({ title: 'Version probe 2' }).execute())).toBe(1);
      expect(await moves(() => tasks().set({ description: 'Other words' }).execute())).toBe(1);
      expect(await moves(() => items().set({ text: 'Renamed item' }).execute())).toBe(1);
      const added = 'f0000000-0000-4000-8000-000000000001';
      expect(
        await moves(() =>
          ctx.db
            .insertInto('todo_items')
            .values({ id: added, task_id: task._id, position: 9, text: 'Added', completed: 0 })
            .execute(),
        ),
      ).toBe(1);
      expect(
        await moves(() => ctx.db.deleteFrom('todo_items').where('id', '=', added).execute()),
      ).toBe(1);
      const comment = 'f0000000-0000-4000-8000-000000000002';
      const at = new Date().toISOString();
      expect(
        await moves(() =>
          ctx.db
            .insertInto('comments')
            .values({
              id: comment,
              task_id: task._id,
              author_id: admin.id,
              body: 'A note',
              mentions: '[]',
              created_at: at,
              updated_at: at,
              edited_at: null,
            })
            .execute(),
        ),
      ).toBe(1);
      const comments = () => ctx.db.updateTable('comments').where('id', '=', comment);
      expect(await moves(() => comments().set({ body: 'A new note' }).execute())).toBe(1);
      expect(
        await moves(() => ctx.db.deleteFrom('comments').where('id', '=', comment).execute()),
      ).toBe(1);
      // A new creation time gives the task a new full-text row id.
      expect(
        await moves(() => tasks().set({ created_at: '2031-01-01T00:00:00.000Z' }).execute()),
      ).toBe(1);
      // Nothing searched: no move.
      expect(await moves(() => items().set({ completed: 1 }).execute())).toBe(0);
      expect(
        await moves(() =>
          tasks()
            .set({ status: 'Completed', priority: 'High', due_date: '2031-02-01T00:00:00.000Z' })
            .execute(),
        ),
      ).toBe(0);
      expect(await moves(() => tasks().set({ title: 'Version probe 2' }).execute())).toBe(0);
      expect(await moves(() => items().set({ text: 'Renamed item' }).execute())).toBe(0);
      // A task added or removed: its full-text key, even with no checklist item or comment.
      const bare = 'f0000000-0000-4000-8000-000000000003';
      expect(
        await moves(() =>
          ctx.db
            .insertInto('tasks')
            .values(taskRow(admin.id, at, { id: bare, title: 'Bare', description: 'No checklist' }))
            .execute(),
        ),
      ).toBe(1);
      expect(await moves(() => ctx.db.deleteFrom('tasks').where('id', '=', bare).execute())).toBe(
        1,
      );
    },
  );
});
