import type { AuthResponse, CreateTaskInput, Label, Task } from '@task-manager/shared';
import { INVITE_TOKEN, type TestContext } from './test-app.js';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export interface Session {
  id: string;
  token: string;
  email: string;
  password: string;
  user: AuthResponse;
  auth: { Authorization: string };
}

export function buildUser(overrides: Record<string, unknown> = {}) {
  const id = unique();
  return {
    name: `User ${id}`,
    email: `user-${id}@example.com`,
    password: 'correct-horse-battery',
    ...overrides,
  };
}

/** Signs up through the API: an admin with the invite token, otherwise a member. */
export async function signUp(
  ctx: TestContext,
  role: 'admin' | 'member' = 'member',
  overrides: Record<string, unknown> = {},
): Promise<Session> {
  const body = buildUser({
    ...(role === 'admin' ? { adminInviteToken: INVITE_TOKEN } : {}),
    ...overrides,
  });
  const res = await ctx.api.post('/api/auth/register').send(body).expect(201);
  return {
    id: res.body._id,
    token: res.body.token,
    email: res.body.email,
    password: body.password as string,
    user: res.body,
    auth: { Authorization: `Bearer ${res.body.token}` },
  };
}

export function buildTask(assignedTo: string[], overrides: Partial<CreateTaskInput> = {}) {
  return {
    title: `Task ${unique()}`,
    description: 'Write the quarterly report',
    priority: 'Medium',
    dueDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    assignedTo,
    todoChecklist: [
      { text: 'Draft', completed: false },
      { text: 'Review', completed: false },
    ],
    attachments: ['https://example.com/spec.pdf'],
    ...overrides,
  } satisfies CreateTaskInput;
}

/**
 * Sets a task's due date to the instant `epochMs` in the database itself (any instant, past
 * ones included, to the millisecond), as if it had been written so.
 */
export async function setDueDate(ctx: TestContext, taskId: string, epochMs: number) {
  await ctx.db
    .updateTable('tasks')
    .set({ due_date: new Date(epochMs).toISOString() })
    .where('id', '=', taskId)
    .execute();
}

/** Creates a task through the API as `admin`. */
export async function createTask(
  ctx: TestContext,
  admin: Session,
  assignedTo: string[],
  overrides: Partial<CreateTaskInput> = {},
): Promise<Task> {
  const res = await ctx.api
    .post('/api/tasks')
    .set(admin.auth)
    .send(buildTask(assignedTo, overrides))
    .expect(201);
  return res.body.task;
}

/** A 1 × 1 PNG. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads a photo as sign-up does: the relative path the server answered, to send as a photo. */
export async function uploadPhoto(ctx: TestContext): Promise<string> {
  const res = await ctx.api
    .post('/api/auth/upload-image')
    .attach('image', PIXEL_PNG, 'photo.png')
    .expect(200);
  return res.body.imageUrl as string;
}

/** A label made by `admin` through the API. */
export async function createLabel(
  ctx: TestContext,
  admin: Session,
  name: string,
  color = '#AA3300',
): Promise<Label> {
  const res = await ctx.api.post('/api/labels').set(admin.auth).send({ name, color }).expect(201);
  return res.body as Label;
}

/**
 * A task row to insert straight into `tasks` (no checklist, no assignee): for tests that need
 * many tasks fast, or a task the API could not make. Pending, Low, due 2031-01-01.
 */
export function taskRow(
  createdBy: string,
  at: string,
  overrides: { id: string; title: string; description?: string },
) {
  return {
    description: 'bulk',
    priority: 'Low' as const,
    status: 'Pending' as const,
    progress: 0,
    completed_todo_count: 0,
    due_date: '2031-01-01T00:00:00.000Z',
    created_by: createdBy,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}
