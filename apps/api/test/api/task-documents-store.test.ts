import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Label, Task } from '@task-manager/shared';
import {
  buildPostgresDocuments,
  forgetOutdatedDocuments,
  storeOnPostgres,
  taskCardDocuments,
  taskDocuments,
} from '../../src/tasks/documents.js';
import type { TaskRow } from '../../src/tasks/repository.js';
import { cardOf, hydrateTasks, storedTaskText } from '../helpers/task-reference.js';
import { createLabel, createTask, signUp, type Session } from '../helpers/factories.js';
import { onlyOn } from '../helpers/only-on.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/**
 * Each engine keeps each task's JSON once built (task_documents, migrations 2026-11-27-501,
 * 2026-11-29-614 and 2026-11-29-612) and its triggers forget it on any write to what it shows. Whatever the writer
 * (here SQL by hand, which the API's own code never sees), the next answer must be the task as it
 * now stands: the row-by-row reference's answer, whole and as a card.
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

  it('serves a stored text as stored, and forgets it with its task', async () => {
    await taskDocuments(ctx.db, [bystander._id]);
    await taskCardDocuments(ctx.db, [bystander._id]);
    const stored = () =>
      ctx.db
        .selectFrom('task_documents')
        .select(['shape'])
        .where('task_id', '=', bystander._id)
        .where('document', 'is not', null)
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
    // SQLite forgets them in place, their rows kept with no text, to be filled again
    // (migration 2026-11-29-614); PostgreSQL deletes them.
    const forgotten = await ctx.db
      .selectFrom('task_documents')
      .select('document')
      .where('task_id', '=', bystander._id)
      .execute();
    expect(forgotten).toEqual(ENGINE === 'sqlite' ? [{ document: null }, { document: null }] : []);
    expect(JSON.parse((await taskDocuments(ctx.db, [bystander._id]))[0]!)._id).toBe(bystander._id);
    // A database that takes no write (SQLite's query_only, a read-only PostgreSQL session):
    // built, answered, not stored.
    await sql`update tasks set progress = progress where id = ${bystander._id}`.execute(ctx.db);
    await ctx.db.connection().execute(async (connection) => {
      const [on, off] =
        ENGINE === 'sqlite'
          ? [sql`pragma query_only = on`, sql`pragma query_only = off`]
          : [
              sql`set default_transaction_read_only = on`,
              sql`set default_transaction_read_only = off`,
            ];
      await on.execute(connection);
      try {
        const [built] = await taskDocuments(connection, [bystander._id]);
        expect(JSON.parse(built!)._id).toBe(bystander._id);
      } finally {
        await off.execute(connection);
      }
    });
    expect(await stored()).toEqual([]);
    await ctx.api.delete(`/api/tasks/${bystander._id}`).set(admin.auth).expect(200);
    expect(await stored()).toEqual([]);
  });
});

/**
 * PostgreSQL: a reader's statement sees a snapshot taken when it began, so a text built while a
 * write was under way must never outlive that write. Writers forget texts at their commit,
 * holding the data version's row; readers store only while that row is unlocked and unchanged
 * since they built (migration 2026-11-29-612).
 */
onlyOn('postgres', 'the snapshot races of PostgreSQL readers').describe(
  `stored task documents and concurrent writes (${ENGINE})`,
  () => {
    let ctx: TestContext;
    let admin: Session;
    let member: Session;
    let task: Task;

    const storedTitle = async () => {
      const text = await storedTaskText(ctx.db, task._id);
      return text && (JSON.parse(text) as Task).title;
    };
    const answeredTitle = async () =>
      (JSON.parse((await taskDocuments(ctx.db, [task._id]))[0]!) as Task).title;
    const forget = () => ctx.db.deleteFrom('task_documents').execute();

    beforeAll(async () => {
      ctx = await createTestContext();
      admin = await signUp(ctx, 'admin');
      member = await signUp(ctx, 'member');
      task = await createTask(ctx, admin, [member.id], { title: 'First' });
    });
    afterAll(() => ctx.close());

    it('forgets, at its commit, a text stored while the write was under way', async () => {
      await forget();
      await ctx.db.connection().execute(async (writer) => {
        await sql`begin`.execute(writer);
        await sql`update tasks set title = 'Second' where id = ${task._id}`.execute(writer);
        // Not committed: a reader builds the task as committed, and stores it.
        expect(await answeredTitle()).toBe('First');
        expect(await storedTitle()).toBe('First');
        await sql`commit`.execute(writer);
      });
      expect(await storedTitle()).toBeUndefined();
      expect(await answeredTitle()).toBe('Second');
      expect(await storedTitle()).toBe('Second');
    });

    it('stores nothing built before a write that has committed since', async () => {
      await forget();
      const built = await buildPostgresDocuments(ctx.db, 'task', [task._id]);
      await ctx.db
        .updateTable('tasks')
        .set({ title: 'Third' })
        .where('id', '=', task._id)
        .execute();
      expect(await storeOnPostgres(ctx.db, built.key, built)).toBe(false);
      expect(await storedTitle()).toBeUndefined();
      expect(await answeredTitle()).toBe('Third');
      // Built and stored with nothing written in between: kept.
      const again = await buildPostgresDocuments(ctx.db, 'task', [task._id]);
      await forget();
      expect(await storeOnPostgres(ctx.db, again.key, again)).toBe(true);
      expect(await storedTitle()).toBe('Third');
    });

    it('answers without storing, and without waiting, while a writer commits', async () => {
      await forget();
      await ctx.db.connection().execute(async (writer) => {
        await sql`begin`.execute(writer);
        // What a committing writer holds while it forgets texts: the data version's row.
        await sql`select version from data_version where id = 1 for update`.execute(writer);
        try {
          expect(await answeredTitle()).toBe('Third');
          expect(await storedTitle()).toBeUndefined();
        } finally {
          await sql`rollback`.execute(writer);
        }
      });
      expect(await answeredTitle()).toBe('Third');
      expect(await storedTitle()).toBe('Third');
    });

    it("forgets a deleted task's texts in the deleting commit", async () => {
      const doomed = await createTask(ctx, admin, [member.id], { title: 'Doomed' });
      await taskDocuments(ctx.db, [doomed._id]);
      const count = () =>
        ctx.db
          .selectFrom('task_documents')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('task_id', '=', doomed._id)
          .executeTakeFirstOrThrow();
      expect((await count()).n).toBe(1);
      await ctx.api.delete(`/api/tasks/${doomed._id}`).set(admin.auth).expect(200);
      expect((await count()).n).toBe(0);
    });

    it("stores nothing inside a write's transaction, whose commit would forget it", async () => {
      await forget();
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('tasks')
          .set({ title: 'Fourth' })
          .where('id', '=', task._id)
          .execute();
        const [doc] = await taskDocuments(trx, [task._id]);
        expect((JSON.parse(doc!) as Task).title).toBe('Fourth');
        const stored = await trx.selectFrom('task_documents').select('task_id').execute();
        expect(stored).toEqual([]);
      });
      expect(await answeredTitle()).toBe('Fourth');
    });
  },
);
