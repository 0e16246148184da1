import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARD_DESCRIPTION_LENGTH,
  taskCardListResponseSchema,
  taskListResponseSchema,
  type Task,
} from '@task-manager/shared';
import { jsonArray, jsonObject, jsonObjectBytes, toJsonText } from '../../src/http/json-text.js';
import { taskCardDocuments, taskDocuments } from '../../src/tasks/documents.js';
import type { TaskRow } from '../../src/tasks/repository.js';
import { cardOf, hydrateTasks, storedTaskText } from '../helpers/task-reference.js';
import { createLabel, createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * The task list's JSON is written by the database (src/tasks/documents.ts). It must be the very
 * answer the row-by-row reference (test/helpers/task-reference.ts, how the API built tasks
 * before, and for a card the card made from its task) gives: the same keys in the same order, the same values and types, for every kind
 * of task: with and without children, a deactivated assignee, labels, files (finished or not),
 * and texts that JSON must escape.
 */
describe(`task documents: the list's JSON as the database writes it (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let gone: Session;
  const tasks: Task[] = [];

  /** Serialised again after parsing: equal strings mean equal keys, order, values and types. */
  const canonical = (value: unknown) => JSON.stringify(value);

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    gone = await signUp(ctx, 'member');
    const label = (name: string) => createLabel(ctx, admin, name, '#AA3300');
    const [zeta, alpha] = [await label('Zeta ✓'), await label('alpha "quoted"')];

    const hostile = 'Quote " backslash \\ tab \t newline \n nul-free ☃ 🙂 é <b>&amp;</b> \u2028';
    tasks.push(
      await createTask(ctx, admin, [member.id, gone.id], {
        title: `Everything: ${hostile}`,
        description: `${hostile} ${'long text '.repeat(40)}`,
        todoChecklist: [
          { text: `First ${hostile}`, completed: true },
          { text: 'Second', completed: false },
          { text: 'Third', completed: true },
        ],
        attachments: ['https://example.com/a?x=1&y=%22', 'https://example.com/b'],
        labels: [zeta._id, alpha._id],
      } as never),
      await createTask(ctx, admin, [member.id], { attachments: [] }),
      await createTask(ctx, admin, [gone.id], {
        description: `${'x'.repeat(CARD_DESCRIPTION_LENGTH - 1)}🙂 and more after the cut`,
      }),
    );
    for (const name of ['b-second.txt', 'a-first.txt']) {
      await ctx.api
        .post(`/api/tasks/${tasks[0]!._id}/files`)
        .set(admin.auth)
        .attach('file', Buffer.from(`bytes of ${name}`), name)
        .expect(201);
    }
    // An upload still being written: never shown, nor counted.
    await ctx.db
      .insertInto('task_files')
      .values({
        id: randomUUID(),
        task_id: tasks[0]!._id,
        name: 'half.bin',
        content_type: 'application/octet-stream',
        size: 10,
        uploaded_by: admin.id,
        created_at: new Date().toISOString(),
        complete: 0,
      })
      .execute();
    await ctx.api
      .patch(`/api/users/${gone.id}`)
      .set(admin.auth)
      .send({ active: false })
      .expect(200);
    // A task with no checklist (old data only) and one whose creator is gone (created_by null).
    await ctx.db.deleteFrom('todo_items').where('task_id', '=', tasks[1]!._id).execute();
    // A task whose creator is gone (created_by set null).
    await ctx.db
      .updateTable('tasks')
      .set({ created_by: null })
      .where('id', '=', tasks[2]!._id)
      .execute();
  });
  afterAll(() => ctx.close());

  const rowsOf = async (ids: string[]) => {
    const rows = await ctx.db.selectFrom('tasks').selectAll().where('id', 'in', ids).execute();
    return ids.map((id) => rows.find((row) => row.id === id)!) as TaskRow[];
  };

  it('writes each task as hydrateTasks does, key for key, in the order of the ids', async () => {
    const ids = [tasks[2]!._id, tasks[0]!._id, tasks[1]!._id];
    const documents = await taskDocuments(ctx.db, ids);
    const expected = await hydrateTasks(ctx.db, await rowsOf(ids));
    expect(documents.map((doc) => canonical(JSON.parse(doc)))).toEqual(expected.map(canonical));
    const everything = JSON.parse(documents[1]!) as Task;
    // The case the comparison must have covered: every kind of child, in its order.
    expect(everything.todoChecklist.map((item) => item.completed)).toEqual([true, false, true]);
    expect(everything.labels.map((l) => l.name)).toEqual(['alpha "quoted"', 'Zeta ✓']);
    expect(everything.files.map((f) => f.name)).toEqual(['b-second.txt', 'a-first.txt']);
    expect(everything.assignedTo.map((a) => a.deactivated ?? false)).toEqual([false, true]);
    expect(everything.title).toContain('"');
    expect(JSON.parse(documents[0]!).createdBy).toBeNull();
  });

  it("writes each card as its task's card, its description cut the same way", async () => {
    const ids = tasks.map((task) => task._id);
    const documents = await taskCardDocuments(ctx.db, ids);
    const expected = (await hydrateTasks(ctx.db, await rowsOf(ids))).map(cardOf);
    expect(documents.map((doc) => canonical(JSON.parse(doc)))).toEqual(expected.map(canonical));
    expect(expected[0]).toMatchObject({
      todoTotal: 3,
      todoDone: 2,
      attachmentCount: 2,
      fileCount: 2,
    });
    expect(expected[2]!.description.endsWith('…')).toBe(true);
  });

  it('leaves out ids that name no task, and writes nothing for none', async () => {
    expect(await taskDocuments(ctx.db, [])).toEqual([]);
    const documents = await taskDocuments(ctx.db, [randomUUID(), tasks[1]!._id]);
    expect(documents.map((doc) => JSON.parse(doc)._id)).toEqual([tasks[1]!._id]);
  });

  it('puts JSON texts together into arrays and objects, keys in the order given', () => {
    expect(jsonArray([])).toBe('[]');
    const answer = jsonObject([
      ['tasks', jsonArray([toJsonText({ a: 1 }), toJsonText({ b: [] })])],
      ['next "cursor"', toJsonText(null)],
    ]);
    expect(answer).toBe('{"tasks":[{"a":1},{"b":[]}],"next \\"cursor\\"":null}');
    expect(JSON.parse(answer)).toEqual({ tasks: [{ a: 1 }, { b: [] }], 'next "cursor"': null });
  });

  it('writes the same answer as bytes, a list of texts as an array, in UTF-8', () => {
    const items = [toJsonText({ a: 1 }), toJsonText({ title: 'Überprüfung – 検証 ✓' })];
    const entries = [
      ['tasks', items],
      ['empty', []],
      ['one', [toJsonText(2)]],
      ['next "cursor"', toJsonText(null)],
    ] as const;
    const bytes = jsonObjectBytes(entries);
    expect(Buffer.isBuffer(bytes)).toBe(true);
    const asText = jsonObject(
      entries.map(([key, value]) => [key, typeof value === 'string' ? value : jsonArray(value)]),
    );
    expect(bytes.toString('utf8')).toBe(asText);
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({
      tasks: [{ a: 1 }, { title: 'Überprüfung – 検証 ✓' }],
      empty: [],
      one: [2],
      'next "cursor"': null,
    });
    expect(jsonObjectBytes([]).toString()).toBe('{}');
  });

  it('answers one task and the dashboards with documents too', async () => {
    const [expected] = await hydrateTasks(ctx.db, await rowsOf([tasks[0]!._id]));
    const one = await ctx.api.get(`/api/tasks/${tasks[0]!._id}`).set(admin.auth).expect(200);
    expect(one.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(canonical(one.body)).toBe(canonical(expected));
    for (const [path, who] of [
      ['/api/tasks/dashboard-data', admin],
      ['/api/tasks/user-dashboard-data', member],
    ] as const) {
      const res = await ctx.api.get(path).set(who.auth).expect(200);
      const recent = res.body.recentTasks as Task[];
      expect(recent.length).toBeGreaterThan(0);
      const hydrated = await hydrateTasks(ctx.db, await rowsOf(recent.map((t) => t._id)));
      expect(recent.map(canonical)).toEqual(hydrated.map(canonical));
      expect(Object.keys(res.body)).toEqual(['statistics', 'charts', 'recentTasks']);
    }
  });

  it('answers GET /api/tasks, whole or as cards, with those documents', async () => {
    const whole = await ctx.api.get('/api/tasks').set(admin.auth).expect(200);
    expect(whole.headers['content-type']).toBe('application/json; charset=utf-8');
    const list = taskListResponseSchema.strict().parse(whole.body);
    const expected = await hydrateTasks(ctx.db, await rowsOf(list.tasks.map((t) => t._id)));
    expect(list.tasks.map(canonical)).toEqual(expected.map(canonical));
    expect(list.statusSummary.all).toBe(3);
    const cards = await ctx.api.get('/api/tasks?view=card&limit=2').set(admin.auth).expect(200);
    const page = taskCardListResponseSchema.strict().parse(cards.body);
    expect(page.tasks).toHaveLength(2);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it('answers and keeps a tick, a checklist resent with other flags and a status change as the database writes the task', async () => {
    // The "everything" task: labels, files, a deactivated assignee, texts JSON must escape. Its
    // flags are [true, false, true]: In Progress. These writes change only flags, and their
    // answer is made from the task as it was (afterFlagsWrite), not built again.
    const task = tasks[0]!;
    const [second, third] = [task.todoChecklist[1]!, task.todoChecklist[2]!];
    const expectBuiltAnswer = async (answer: Task, status: Task['status'], flags: boolean[]) => {
      const [expected] = await hydrateTasks(ctx.db, await rowsOf([task._id]));
      expect(canonical(answer)).toBe(canonical(expected));
      expect(answer.status).toBe(status);
      expect(answer.todoChecklist.map((item) => item.completed)).toEqual(flags);
      // SQLite keeps the text it answered; PostgreSQL's write forgets it at its commit.
      const stored = await storedTaskText(ctx.db, task._id);
      if (ENGINE === 'sqlite') expect(canonical(JSON.parse(stored!))).toBe(canonical(expected));
      else expect(stored).toBeUndefined();
      const one = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
      expect(canonical(one.body)).toBe(canonical(expected));
    };
    const tick = async (itemId: string, completed: boolean) =>
      (
        await ctx.api
          .patch(`/api/tasks/${task._id}/todo/${itemId}`)
          .set(member.auth)
          .send({ completed })
          .expect(200)
      ).body.task as Task;

    // Every item done: Completed, progress 100.
    await expectBuiltAnswer(await tick(second._id, true), 'Completed', [true, true, true]);
    // One undone again: back in progress.
    await expectBuiltAnswer(await tick(third._id, false), 'In Progress', [true, true, false]);
    // The whole checklist resent with the same texts: only its flags change.
    const resent = (
      await ctx.api
        .put(`/api/tasks/${task._id}/todo`)
        .set(member.auth)
        .send({
          todoChecklist: task.todoChecklist.map((item, index) => ({
            text: item.text,
            completed: index !== 1,
          })),
        })
        .expect(200)
    ).body.task as Task;
    await expectBuiltAnswer(resent, 'In Progress', [true, false, true]);

    // A status change moves the flags with it (or only the status): the same way.
    const move = async (status: Task['status']) =>
      (
        await ctx.api
          .put(`/api/tasks/${task._id}/status`)
          .set(admin.auth)
          .send({ status })
          .expect(200)
      ).body.task as Task;
    await expectBuiltAnswer(await move('Completed'), 'Completed', [true, true, true]);
    await expectBuiltAnswer(await move('Pending'), 'Pending', [false, false, false]);
    await expectBuiltAnswer(await move('In Progress'), 'In Progress', [false, false, false]);
  });
});
