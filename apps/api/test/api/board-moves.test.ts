import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, type Task } from '@task-manager/shared';
import { createTask, signUp, type Session } from '../helpers/factories.js';
import { createTestContext, ENGINE, type TestContext } from '../helpers/test-app.js';

/** Board moves through PUT /api/tasks/:id/status (docs/decisions/007-board-moves.md). */
describe(`board moves (${ENGINE})`, () => {
  let ctx: TestContext;
  let admin: Session;
  let member: Session;
  let other: Session;

  beforeAll(async () => {
    ctx = await createTestContext();
    admin = await signUp(ctx, 'admin');
    member = await signUp(ctx, 'member');
    other = await signUp(ctx, 'member');
  });
  afterAll(() => ctx.close());

  const items = [{ text: 'One' }, { text: 'Two' }, { text: 'Three' }];
  const newTask = () => createTask(ctx, admin, [member.id], { todoChecklist: items });
  const move = (session: Session, id: string, status: string) =>
    ctx.api.put(`/api/tasks/${id}/status`).set(session.auth).send({ status });
  const tick = (session: Session, task: Task, done: boolean[]) =>
    ctx.api
      .put(`/api/tasks/${task._id}/todo`)
      .set(session.auth)
      .send({
        todoChecklist: task.todoChecklist.map((item, i) => ({
          text: item.text,
          completed: done[i],
        })),
      });

  it('starts a task with nothing done: In Progress at 0 %, no item ticked', async () => {
    const task = await newTask();
    const res = await move(member, task._id, 'In Progress').expect(200);
    expect(res.body.task).toMatchObject({
      status: 'In Progress',
      progress: 0,
      completedTodoCount: 0,
    });
    expect(res.body.task.todoChecklist.map((i: { completed: boolean }) => i.completed)).toEqual([
      false,
      false,
      false,
    ]);
    const list = await ctx.api
      .get('/api/tasks')
      .query({ status: 'In Progress' })
      .set(member.auth)
      .expect(200);
    expect(list.body.tasks.map((t: Task) => t._id)).toContain(task._id);
  });

  it('keeps a started task In Progress through checklist writes that leave nothing done', async () => {
    const task = await newTask();
    await move(member, task._id, 'In Progress').expect(200);
    const same = await tick(member, task, [false, false, false]).expect(200);
    expect(same.body.task.status).toBe('In Progress');
    const edited = await ctx.api
      .put(`/api/tasks/${task._id}`)
      .set(admin.auth)
      .send({ todoChecklist: [...items, { text: 'Four' }] })
      .expect(200);
    expect(edited.body.task).toMatchObject({ status: 'In Progress', progress: 0 });
  });

  it('hands over to the checklist once an item is ticked', async () => {
    const task = await newTask();
    await move(member, task._id, 'In Progress').expect(200);
    const one = await tick(member, task, [true, false, false]).expect(200);
    expect(one.body.task).toMatchObject({ status: 'In Progress', progress: 33 });
    const none = await tick(member, task, [false, false, false]).expect(200);
    expect(none.body.task).toMatchObject({ status: 'Pending', progress: 0 });
    const all = await tick(member, task, [true, true, true]).expect(200);
    expect(all.body.task).toMatchObject({ status: 'Completed', progress: 100 });
  });

  it('refuses Completed to In Progress with every item done, and says why', async () => {
    const task = await newTask();
    await move(member, task._id, 'Completed').expect(200);
    const res = await move(member, task._id, 'In Progress').expect(400);
    expect(res.body.message).toBe(apiMessages.statusNeedsOpenItem);
    const after = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(after.body).toMatchObject({ status: 'Completed', progress: 100 });
  });

  it('moves to Pending and Completed as decision 003 says', async () => {
    const task = await newTask();
    await tick(member, task, [true, false, false]).expect(200);
    const pending = await move(admin, task._id, 'Pending').expect(200);
    expect(pending.body.task).toMatchObject({ status: 'Pending', completedTodoCount: 0 });
    const done = await move(admin, task._id, 'Completed').expect(200);
    expect(done.body.task).toMatchObject({ status: 'Completed', completedTodoCount: 3 });
  });

  it('lets no one move a task they cannot see (404), nor to an unknown column (400)', async () => {
    const task = await newTask();
    await move(other, task._id, 'In Progress').expect(404);
    await move(member, task._id, 'Doing').expect(400);
    const after = await ctx.api.get(`/api/tasks/${task._id}`).set(admin.auth).expect(200);
    expect(after.body.status).toBe('Pending');
  });
});
