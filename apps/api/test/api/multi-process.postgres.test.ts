import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { progressOf, statusOf, type Task } from '@task-manager/shared';
import { createPostgresDatabase } from '../helpers/databases.js';
import { onlyOn } from '../helpers/only-on.js';
import {
  serverUrl,
  startServer,
  tempDir,
  waitForOutput,
  type ServerProcess,
} from '../helpers/server-process.js';

/**
 * Two real API processes on one new PostgreSQL database behave as one service: each reads what
 * the other writes, accepts the other's tokens and serves the other's images, and concurrent
 * checklist changes through both never lose a tick nor leave a task out of step with its items.
 * (PostgreSQL only: the SQLite pass reports it as not applicable.)
 */

const JWT_SECRET = 'multi-process-test-secret-0123456789abcdef';

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any endpoint's answer, read field by field
  body: any;
}

/** One process, spoken to over real HTTP. */
function client(base: string) {
  return async (
    method: string,
    path: string,
    { token, body }: { token?: string; body?: unknown } = {},
  ): Promise<Answer> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}
type Client = ReturnType<typeof client>;

onlyOn('postgres').describe(
  'two API processes on one PostgreSQL database',
  { timeout: 120_000 },
  () => {
    const servers: ServerProcess[] = [];
    let dropDatabase = async () => {};
    let a: Client;
    let b: Client;
    let urlA: string;
    let urlB: string;
    let inviteToken: string;
    let admin: { id: string; token: string };
    let member: { id: string; token: string };

    beforeAll(async () => {
      const database = await createPostgresDatabase();
      dropDatabase = database.drop;
      const env = () => ({
        DATA_DIR: tempDir(),
        PORT: '0',
        DATABASE_URL: database.url,
        JWT_SECRET,
        BCRYPT_COST: '4',
        AUTH_RATE_LIMIT: '10000',
      });
      // Started at the same moment: both migrate the new database and settle the invite token.
      servers.push(startServer(env()), startServer(env()));
      [urlA = '', urlB = ''] = await Promise.all(servers.map(serverUrl));
      a = client(urlA);
      b = client(urlB);
    }, 120_000);

    afterAll(async () => {
      for (const server of servers) server.child.kill('SIGTERM');
      const codes = await Promise.all(servers.map((server) => server.exited));
      await dropDatabase();
      expect(codes).toEqual([0, 0]);
    });

    it('started together on a new database, both offer the same admin invite token', async () => {
      const pattern = /Admin invite token[^:]*: (\d{6})/;
      const [first, second] = await Promise.all(
        servers.map(async (server) => (await waitForOutput(server, pattern))[1]),
      );
      expect(first).toMatch(/^\d{6}$/);
      expect(second).toBe(first);
      inviteToken = first ?? '';
    });

    it('a token made on one works on the other', async () => {
      // Signed up through A with the code B printed; signed in through B.
      const account = { email: 'admin@example.com', password: 'a-long-password' };
      const registered = await a('POST', '/api/auth/register', {
        body: { name: 'Admin', ...account, adminInviteToken: inviteToken },
      });
      expect(registered.status).toBe(201);
      expect(registered.body.role).toBe('admin');
      const onB = await b('GET', '/api/auth/profile', { token: registered.body.token });
      expect(onB.status).toBe(200);
      expect(onB.body).toMatchObject({ _id: registered.body._id, role: 'admin' });
      admin = { id: registered.body._id, token: registered.body.token };

      const signedUp = await b('POST', '/api/auth/register', {
        body: { name: 'Member', email: 'member@example.com', password: 'first-password' },
      });
      expect(signedUp.status).toBe(201);
      const loginOnA = await a('POST', '/api/auth/login', {
        body: { email: 'member@example.com', password: 'first-password' },
      });
      expect(loginOnA.status).toBe(200);
      expect((await b('GET', '/api/auth/profile', { token: loginOnA.body.token })).status).toBe(
        200,
      );

      // A password change through B ends the old sessions on A too: the state is shared.
      const changed = await b('PUT', '/api/auth/profile', {
        token: loginOnA.body.token,
        body: { currentPassword: 'first-password', newPassword: 'second-password' },
      });
      expect(changed.status).toBe(200);
      expect((await a('GET', '/api/auth/profile', { token: loginOnA.body.token })).status).toBe(
        401,
      );
      expect((await a('GET', '/api/auth/profile', { token: changed.body.token })).status).toBe(200);
      member = { id: changed.body._id, token: changed.body.token };
    });

    it('what one writes, the other reads', async () => {
      const created = await a('POST', '/api/tasks', {
        token: admin.token,
        body: {
          title: 'Shared task',
          description: 'Written through A',
          dueDate: '2030-01-15',
          assignedTo: [member.id],
          todoChecklist: [{ text: 'One' }, { text: 'Two' }],
        },
      });
      expect(created.status).toBe(201);
      const task = created.body.task as Task;

      const readOnB = await b('GET', `/api/tasks/${task._id}`, { token: member.token });
      expect(readOnB).toEqual({ status: 200, body: task });

      const updatedOnB = await b('PUT', `/api/tasks/${task._id}`, {
        token: admin.token,
        body: { title: 'Shared task, renamed through B', priority: 'High' },
      });
      expect(updatedOnB.status).toBe(200);
      const readOnA = await a('GET', `/api/tasks/${task._id}`, { token: admin.token });
      expect(readOnA.body).toEqual(updatedOnB.body.task);

      const users = await b('GET', '/api/users', { token: admin.token });
      expect(users.body.map((user: { _id: string }) => user._id)).toContain(member.id);
      const board = await a('GET', '/api/tasks/user-dashboard-data', { token: member.token });
      expect(board.body.statistics.totalTasks).toBe(1);

      const deleted = await b('DELETE', `/api/tasks/${task._id}`, { token: admin.token });
      expect(deleted.status).toBe(200);
      expect((await a('GET', `/api/tasks/${task._id}`, { token: admin.token })).status).toBe(404);
    });

    it('an image uploaded through one is served by the other', async () => {
      const png = await sharp({
        create: { width: 6, height: 4, channels: 3, background: { r: 10, g: 120, b: 200 } },
      })
        .png()
        .toBuffer();
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'photo.png');
      const uploaded = await fetch(`${urlA}/api/auth/upload-image`, { method: 'POST', body: form });
      expect(uploaded.status).toBe(200);
      const { imageUrl } = (await uploaded.json()) as { imageUrl: string };
      expect(imageUrl).toMatch(/^\/api\/images\//);
      const served = await fetch(`${urlB}${imageUrl}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await served.arrayBuffer());
      const { width, height, format } = await sharp(bytes).metadata();
      expect({ width, height, format }).toEqual({ width: 6, height: 4, format: 'webp' });
    });

    /** A task assigned to the member, with `count` open items, made through A. */
    async function taskWithItems(count: number): Promise<Task> {
      const created = await a('POST', '/api/tasks', {
        token: admin.token,
        body: {
          title: `Busy task ${count}`,
          description: 'Many hands',
          dueDate: '2030-01-15',
          assignedTo: [member.id],
          todoChecklist: Array.from({ length: count }, (_, i) => ({ text: `Step ${i + 1}` })),
        },
      });
      expect(created.status).toBe(201);
      return created.body.task;
    }

    /** The task as each process reads it: they must agree. */
    async function readFromBoth(id: string): Promise<Task> {
      const [onA, onB] = await Promise.all([
        a('GET', `/api/tasks/${id}`, { token: admin.token }),
        b('GET', `/api/tasks/${id}`, { token: admin.token }),
      ]);
      expect(onA.status).toBe(200);
      expect(onB.body).toEqual(onA.body);
      return onA.body;
    }

    it('20 ticks sent at once, split between the processes, all land', async () => {
      const task = await taskWithItems(20);
      const send = (completed: boolean) =>
        Promise.all(
          task.todoChecklist.map((item, i) =>
            (i % 2 === 0 ? a : b)('PATCH', `/api/tasks/${task._id}/todo/${item._id}`, {
              token: member.token,
              body: { completed },
            }),
          ),
        );

      const ticks = await send(true);
      expect(ticks.map((res) => res.status)).toEqual(ticks.map(() => 200));
      const done = await readFromBoth(task._id);
      expect(done.todoChecklist.filter((item) => item.completed)).toHaveLength(20);
      expect(done).toMatchObject({ completedTodoCount: 20, progress: 100, status: 'Completed' });

      const unticks = await send(false);
      expect(unticks.map((res) => res.status)).toEqual(unticks.map(() => 200));
      const reset = await readFromBoth(task._id);
      expect(reset.todoChecklist.filter((item) => item.completed)).toHaveLength(0);
      expect(reset).toMatchObject({ completedTodoCount: 0, progress: 0, status: 'Pending' });
    });

    it('whole-list PUTs sent at once leave one of the lists sent, with matching counts', async () => {
      const task = await taskWithItems(8);
      // Sixteen different lists: some rename or drop items, each with its own ticks.
      const lists = Array.from({ length: 16 }, (_, n) =>
        task.todoChecklist.slice(0, n % 4 === 1 ? 6 : 8).map((item, i) => ({
          text: n % 3 === 0 && i === n % 8 ? `${item.text} (version ${n})` : item.text,
          completed: (n * 7 + i * 3) % 5 < 2 + (n % 3),
        })),
      );
      const answers = await Promise.all(
        lists.map((todoChecklist, n) =>
          (n % 2 === 0 ? a : b)('PUT', `/api/tasks/${task._id}/todo`, {
            token: admin.token,
            body: { todoChecklist },
          }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(answers.map(() => 200));

      const stored = await readFromBoth(task._id);
      const items = stored.todoChecklist.map(({ text, completed }) => ({ text, completed }));
      // One request's list, whole: never a mix of two, never an item twice.
      expect(lists).toContainEqual(items);
      const progress = progressOf(items);
      expect(stored).toMatchObject({
        completedTodoCount: items.filter((item) => item.completed).length,
        progress,
        status: statusOf(progress),
      });
    });
  },
);
