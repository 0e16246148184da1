import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, validationMessages, type Label, type Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

describe(`labels (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  let counter = 0;
  const newLabel = async (overrides: Partial<{ name: string; color: string }> = {}) => {
    const res = await ctx.api
      .post('/api/labels')
      .set(admin.auth)
      .send({
        name: `Label ${counter++} ${randomUUID().slice(0, 6)}`,
        color: '#AA3300',
        ...overrides,
      })
      .expect(201);
    return res.body as Label;
  };
  const getTask = async (id: string) =>
    (await ctx.api.get(`/api/tasks/${id}`).set(admin.auth).expect(200)).body as Task;

  it('lets an admin create, rename, recolor and delete a label; anyone signed in lists them', async () => {
    const created = await newLabel({ name: '  Backend ', color: '#1A2B3C' });
    expect(created).toEqual({ _id: expect.any(String), name: 'Backend', color: '#1a2b3c' });

    const listed = await ctx.api.get('/api/labels').set(member.auth).expect(200);
    expect(listed.body).toContainEqual(created);

    const renamed = await ctx.api
      .put(`/api/labels/${created._id}`)
      .set(admin.auth)
      .send({ name: 'Back end' })
      .expect(200);
    expect(renamed.body).toEqual({ ...created, name: 'Back end' });
    const recolored = await ctx.api
      .put(`/api/labels/${created._id}`)
      .set(admin.auth)
      .send({ color: '#00ff00' })
      .expect(200);
    expect(recolored.body).toEqual({ ...created, name: 'Back end', color: '#00ff00' });

    const deleted = await ctx.api.delete(`/api/labels/${created._id}`).set(admin.auth).expect(200);
    expect(deleted.body.message).toBe(apiMessages.labelDeleted);
    const after = await ctx.api.get('/api/labels').set(admin.auth).expect(200);
    expect((after.body as Label[]).map((label) => label._id)).not.toContain(created._id);
    await ctx.api.delete(`/api/labels/${created._id}`).set(admin.auth).expect(404);
    await ctx.api.put(`/api/labels/${created._id}`).set(admin.auth).send({ name: 'x' }).expect(404);
  });

  it('lists labels by name, whatever their case', async () => {
    const names = ['zeta-sort', 'Alpha-sort', 'beta-sort'];
    for (const name of names) await newLabel({ name });
    const res = await ctx.api.get('/api/labels').set(member.auth).expect(200);
    const sorted = (res.body as Label[]).map((l) => l.name).filter((n) => n.endsWith('-sort'));
    expect(sorted).toEqual(['Alpha-sort', 'beta-sort', 'zeta-sort']);
  });

  it('refuses a second label with the same name in another case (409), on create and rename', async () => {
    const first = await newLabel({ name: 'Ünique Name' });
    const res = await ctx.api
      .post('/api/labels')
      .set(admin.auth)
      .send({ name: 'üNIQUE name', color: '#000000' })
      .expect(409);
    expect(res.body).toMatchObject({ message: apiMessages.labelExists, code: 'conflict' });
    const other = await newLabel();
    await ctx.api
      .put(`/api/labels/${other._id}`)
      .set(admin.auth)
      .send({ name: 'ÜNIQUE NAME' })
      .expect(409);
    // Renaming a label to its own name in another case is fine.
    await ctx.api
      .put(`/api/labels/${first._id}`)
      .set(admin.auth)
      .send({ name: 'ünique name' })
      .expect(200);
  });

  it.each([
    ['no name', { color: '#000000' }, 'name', validationMessages.labelNameRequired],
    [
      'a blank name',
      { name: '   ', color: '#000000' },
      'name',
      validationMessages.labelNameRequired,
    ],
    [
      'a name of 51 characters',
      { name: 'x'.repeat(51), color: '#000000' },
      'name',
      validationMessages.labelNameTooLong,
    ],
    ['no color', { name: 'No color' }, 'color', validationMessages.labelColorInvalid],
    ['a color name', { name: 'Red', color: 'red' }, 'color', validationMessages.labelColorInvalid],
    [
      'a short hex color',
      { name: 'Red', color: '#f00' },
      'color',
      validationMessages.labelColorInvalid,
    ],
    [
      'a hex color without #',
      { name: 'Red', color: 'ff0000' },
      'color',
      validationMessages.labelColorInvalid,
    ],
  ])('refuses a label with %s (400 naming the field)', async (_what, body, path, message) => {
    const res = await ctx.api.post('/api/labels').set(admin.auth).send(body).expect(400);
    expect(res.body.message).toBe(message);
    expect(res.body.errors).toContainEqual({ path, message });
  });

  it('refuses an empty update', async () => {
    const label = await newLabel();
    const res = await ctx.api.put(`/api/labels/${label._id}`).set(admin.auth).send({}).expect(400);
    expect(res.body.message).toBe(validationMessages.nothingToUpdate);
  });

  it('lets members read labels but not write them; refuses everyone signed out', async () => {
    const label = await newLabel();
    await ctx.api
      .post('/api/labels')
      .set(member.auth)
      .send({ name: 'Member label', color: '#000000' })
      .expect(403);
    await ctx.api.put(`/api/labels/${label._id}`).set(member.auth).send({ name: 'x' }).expect(403);
    await ctx.api.delete(`/api/labels/${label._id}`).set(member.auth).expect(403);
    await ctx.api.get('/api/labels').expect(401);
    await ctx.api.post('/api/labels').send({ name: 'x', color: '#000000' }).expect(401);
  });

  it('gives tasks labels on create and update, answered as { _id, name, color } by name', async () => {
    const bug = await newLabel({ name: 'Zz bug', color: '#ff0000' });
    const ux = await newLabel({ name: 'Aa ux', color: '#00ff00' });
    const task = await createTask(ctx, admin, [member.id], { labels: [bug._id, ux._id, bug._id] });
    expect(task.labels).toEqual([ux, bug]);
    expect((await getTask(task._id)).labels).toEqual([ux, bug]);

    const updated = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ labels: [bug._id] })
      .expect(200);
    expect(updated.body.task.labels).toEqual([bug]);
    // An update without labels keeps them.
    const titled = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ title: 'Renamed' })
      .expect(200);
    expect(titled.body.task.labels).toEqual([bug]);
    const cleared = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ labels: [] })
      .expect(200);
    expect(cleared.body.task.labels).toEqual([]);

    // The member's list and task page show them too.
    await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ labels: [ux._id] });
    const mine = await ctx.api.get('/api/tasks').set(member.auth).expect(200);
    const listed = (mine.body.tasks as Task[]).find((t) => t._id === task._id);
    expect(listed?.labels).toEqual([ux]);
  });

  it('answers labels: [] on a task without any, in lists and dashboards too', async () => {
    const task = await createTask(ctx, admin, [member.id]);
    expect(task.labels).toEqual([]);
    const list = await ctx.api.get('/api/tasks').set(admin.auth).expect(200);
    for (const t of list.body.tasks as Task[]) expect(Array.isArray(t.labels)).toBe(true);
    const dash = await ctx.api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
    for (const t of dash.body.recentTasks as Task[]) expect(Array.isArray(t.labels)).toBe(true);
  });

  it('refuses a task with a label id that does not exist (400 naming labels), changing nothing', async () => {
    const missing = randomUUID();
    const res = await ctx.api
      .post('/api/tasks')
      .set(admin.auth)
      .send({
        title: 'With a ghost label',
        description: 'd',
        dueDate: '2030-01-01',
        assignedTo: [member.id],
        todoChecklist: [{ text: 'a' }],
        labels: [missing],
      })
      .expect(400);
    expect(res.body.message).toContain('labels');
    expect(res.body.errors).toEqual([
      { path: 'labels', message: expect.stringContaining(missing) },
    ]);
    const label = await newLabel();
    const task = await createTask(ctx, admin, [member.id], { labels: [label._id] });
    const update = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ labels: [label._id, missing], title: 'Not saved' })
      .expect(400);
    expect(update.body.errors[0].path).toBe('labels');
    const unchanged = await getTask(task._id);
    expect(unchanged.labels).toEqual([label]);
    expect(unchanged.title).toBe(task.title);
  });

  it.each([
    ['not a list', 'abc'],
    ['not ids', ['abc']],
    ['21 labels', Array.from({ length: 21 }, () => randomUUID())],
  ])('refuses labels that are %s (400 naming labels)', async (_what, labels) => {
    const task = await createTask(ctx, admin, [member.id]);
    const res = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ labels })
      .expect(400);
    expect(res.body.errors[0].path).toMatch(/^labels/);
  });

  it('takes a deleted label off every task that carried it', async () => {
    const doomed = await newLabel();
    const kept = await newLabel();
    const tasks = await Promise.all(
      [0, 1, 2].map(() => createTask(ctx, admin, [member.id], { labels: [doomed._id, kept._id] })),
    );
    await ctx.api.delete(`/api/labels/${doomed._id}`).set(admin.auth).expect(200);
    for (const task of tasks) expect((await getTask(task._id)).labels).toEqual([kept]);
    const rows = await ctx.db
      .selectFrom('task_labels')
      .select('task_id')
      .where('label_id', '=', doomed._id)
      .execute();
    expect(rows).toEqual([]);
    // The label filter now refuses the deleted id.
    await ctx.api.get('/api/tasks').query({ label: doomed._id }).set(admin.auth).expect(400);
  });

  it('deleting a task deletes its label links, not the labels', async () => {
    const label = await newLabel();
    const task = await createTask(ctx, admin, [member.id], { labels: [label._id] });
    await ctx.api.delete(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    const links = await ctx.db
      .selectFrom('task_labels')
      .select('label_id')
      .where('task_id', '=', task._id)
      .execute();
    expect(links).toEqual([]);
    const res = await ctx.api.get('/api/labels').set(admin.auth).expect(200);
    expect(res.body).toContainEqual(label);
  });
});
