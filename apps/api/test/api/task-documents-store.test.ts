import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Label, Task } from '@task-manager/shared';
import {
  forgetOutdatedDocuments,
  taskCardDocuments,
  taskDocuments,
} from '../../src/tasks/documents.js';
import type { TaskRow } from '../../src/tasks/repository.js';
import { cardOf, hydrateTasks } from '../helpers/task-reference.js';
import { createLabel, createTask, signUp, type Session } from '../helpers/factories.js';
import { onlyOn } from '../helpers/only-on.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * SQLite keeps each task's JSON once built (task_documents, migration 2026-11-27-501) and its
 * triggers delete it on any write to what it shows. Whatever the writer (here SQL by hand, which
 * the API's own code never sees), the next answer must be the task as it now stands: the
 * row-by-row reference's answer, whole and as a card. On PostgreSQL, which builds every answer,
 * the same sequence holds as well.
 */
describe(`stored task documents follow every write (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let other: Session;
  let task: Task;
  let bystander: Task;
  let zeta: Label;
  let alpha: Label;

  const canonical = (value: unknown) => JSON.stringify(value);
  const reference = async (ids: string[]) => {
    const rows = await ctx.db.selectFrom('tasks').selectAll().where('id', 'in', ids).execute();
    const ordered = ids.flatMap((id) => rows.filter((row) => row.id === id)) as TaskRow[];
    return hydrateTasks(ctx.db, ordered);
  };
  /** Both shapes, read twice (built, then as stored), against the reference. */
  const expectCurrent = async () => {
    const ids = [task._id, bystander._id];
    const expected = await reference(ids);
    for (let read = 0; read < 2; read += 1) {
      const whole = (await taskDocuments(ctx.db, ids)).map((doc) => canonical(JSON.parse(doc)));
      expect(whole).toEqual(expected.map(canonical));
      const cards = (await taskCardDocuments(ctx.db, ids)).map((doc) => canonical(JSON.parse(doc)));
      expect(cards).toEqual(expected.map(cardOf).map(canonical));
    }
    return expected[0]!;
  };

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    other = await signUp(ctx, 'member');
    const label = (name: string) => createLabel(ctx, admin, name, '#AA3300');
    [zeta, alpha] = [await label('Zeta'), await label('Alpha')];
    task = await createTask(ctx, admin, [member.id, other.id], {
      title: 'Stored',
      todoChecklist: [
        { text: 'One', completed: true },
        { text: 'Two', completed: false },
      ],
      attachments: ['https://example.com/a', 'https://example.com/b'],
      labels: [zeta._id, alpha._id],
    } as never);
    bystander = await createTask(ctx, admin, [other.id], { title: 'Bystander' });
    await ctx.api
      .post(`/api/tasks/${task._id}/files`)
      .set(admin.auth)
      .attach('file', Buffer.from('bytes'), 'notes.txt')
      .expect(201);
  });
  afterAll(() => ctx.close());

  it('answers the task as it stands after each write made by hand', async () => {
    await expectCurrent();
    const writes: Array<[string, () => Promise<unknown>]> = [
      [
        'the title',
        () =>
          ctx.db
            .updateTable('tasks')
            .set({ title: 'Renamed' })
            .where('id', '=', task._id)
            .execute(),
      ],
      [
        'a checklist item ticked',
        () =>
          ctx.db
            .updateTable('todo_items')
            .set({ completed: 1 })
            .where('task_id', '=', task._id)
            .where('text', '=', 'Two')
            .execute(),
      ],
      [
        'a checklist item removed',
        () =>
          ctx.db
            .deleteFrom('todo_items')
            .where('task_id', '=', task._id)
            .where('text', '=', 'One')
            .execute(),
      ],
      [
        "an assignee's name",
        () =>
          ctx.db
            .updateTable('users')
            .set({ name: 'Someone Else' })
            .where('id', '=', member.id)
            .execute(),
      ],
      [
        'an assignee deactivated',
        () => ctx.db.updateTable('users').set({ active: 0 }).where('id', '=', other.id).execute(),
      ],
      [
        "a label's colour",
        () =>
          ctx.db
            .updateTable('labels')
            .set({ color: '#000000' })
            .where('id', '=', zeta._id)
            .execute(),
      ],
      [
        "a label's name (and so the labels' order)",
        () =>
          ctx.db
            .updateTable('labels')
            .set({ name: 'Aardvark', name_key: 'aardvark' })
            .where('id', '=', zeta._id)
            .execute(),
      ],
      ['a label deleted', () => ctx.db.deleteFrom('labels').where('id', '=', alpha._id).execute()],
      [
        'a link removed',
        () =>
          ctx.db
            .deleteFrom('attachments')
            .where('task_id', '=', task._id)
            .where('url', '=', 'https://example.com/a')
            .execute(),
      ],
      [
        "a file's name",
        () =>
          ctx.db
            .updateTable('task_files')
            .set({ name: 'renamed.txt' })
            .where('task_id', '=', task._id)
            .execute(),
      ],
      [
        'an upload finished',
        () =>
          ctx.db
            .insertInto('task_files')
            .values({
              id: randomUUID(),
              task_id: task._id,
              name: 'late.bin',
              content_type: 'application/octet-stream',
              size: 4,
              uploaded_by: admin.id,
              created_at: new Date().toISOString(),
              complete: 0,
            })
            .execute()
            .then(() =>
              ctx.db
                .updateTable('task_files')
                .set({ complete: 1 })
                .where('name', '=', 'late.bin')
                .execute(),
            ),
      ],
      [
        'an assignee removed',
        () =>
          ctx.db
            .deleteFrom('task_assignees')
            .where('task_id', '=', task._id)
            .where('user_id', '=', member.id)
            .execute(),
      ],
      [
        'an assignee deleted with their account',
        () => ctx.db.deleteFrom('users').where('id', '=', other.id).execute(),
      ],
    ];
    for (const [what, write] of writes) {
      const before = await expectCurrent();
      await write();
      const after = await expectCurrent();
      expect(canonical(after), `${what} changed the answer`).not.toBe(canonical(before));
    }
    const final = await expectCurrent();
    expect(final).toMatchObject({ title: 'Renamed', assignedTo: [], completedTodoCount: 1 });
    expect(final.labels.map((l) => l.name)).toEqual(['Aardvark']);
    expect(final.files.map((f) => f.name).sort()).toEqual(['late.bin', 'renamed.txt']);
  });

  it('answers writes made through the API with the task as it then stands', async () => {
    const updated = await ctx.api
      .put(`/api/tasks/${bystander._id}`)
      .set(admin.auth)
      .send({ title: 'Bystander, renamed', priority: 'High' })
      .expect(200);
    const shown = await ctx.api.get(`/api/tasks/${bystander._id}`).set(admin.auth).expect(200);
    const [expected] = await reference([bystander._id]);
    expect(canonical(shown.body)).toBe(canonical(expected));
    expect(canonical(updated.body.task ?? updated.body)).toBe(canonical(expected));
    expect(shown.body).toMatchObject({ title: 'Bystander, renamed', priority: 'High' });
  });

  onlyOn('sqlite').it('serves a stored text as stored, and forgets it with its task', async () => {
    await taskDocuments(ctx.db, [bystander._id]);
    await taskCardDocuments(ctx.db, [bystander._id]);
    const stored = () =>
      ctx.db
        .selectFrom('task_documents')
        .select(['shape'])
        .where('task_id', '=', bystander._id)
        .orderBy('shape')
        .execute();
    expect((await stored()).map((row) => row.shape)).toEqual([
      expect.stringMatching(/^card:[0-9a-f]{12}$/),
      expect.stringMatching(/^task:[0-9a-f]{12}$/),
    ]);
    // Proof that the answer comes from the store: a text put there by hand is what is read.
    await ctx.db
      .updateTable('task_documents')
      .set({ document: '{"_id":"marker"}' })
      .where('task_id', '=', bystander._id)
      .where('shape', 'like', 'task:%')
      .execute();
    expect(await taskDocuments(ctx.db, [bystander._id])).toEqual(['{"_id":"marker"}']);
    // A text an earlier version wrote (another digest) is never read, and goes at start-up.
    await ctx.db
      .updateTable('task_documents')
      .set({ shape: 'task:000000000000' })
      .where('task_id', '=', bystander._id)
      .where('shape', 'like', 'task:%')
      .execute();
    expect(JSON.parse((await taskDocuments(ctx.db, [bystander._id]))[0]!)._id).toBe(bystander._id);
    expect(await forgetOutdatedDocuments(ctx.db)).toBe(1);
    expect(await stored()).toHaveLength(2);
    // Any write to the task forgets both of its texts, in the writing statement.
    await sql`update tasks set progress = progress where id = ${bystander._id}`.execute(ctx.db);
    expect(await stored()).toEqual([]);
    expect(JSON.parse((await taskDocuments(ctx.db, [bystander._id]))[0]!)._id).toBe(bystander._id);
    // A file that takes no write (here SQLite's query_only): built, answered, not stored.
    await sql`update tasks set progress = progress where id = ${bystander._id}`.execute(ctx.db);
    await sql`pragma query_only = on`.execute(ctx.db);
    try {
      const [built] = await taskDocuments(ctx.db, [bystander._id]);
      expect(JSON.parse(built!)._id).toBe(bystander._id);
    } finally {
      await sql`pragma query_only = off`.execute(ctx.db);
    }
    expect(await stored()).toEqual([]);
    await ctx.api.delete(`/api/tasks/${bystander._id}`).set(admin.auth).expect(200);
    expect(await stored()).toEqual([]);
  });
});
