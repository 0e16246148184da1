import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { progressOf, statusOf } from '@task-manager/shared';
import { createPostgresDatabase } from '../helpers/databases.js';
import {
  killAll,
  serverUrl,
  startServer,
  tempDir,
  waitForOutput,
  type ServerProcess,
} from '../helpers/server-process.js';
import { ENGINE } from '../helpers/test-app.js';

/**
 * The real server, killed with SIGKILL in the middle of a burst of writes, then started again
 * on the same data: every write it acknowledged must be there, and nothing may be half-written.
 */
const running: ServerProcess[] = [];
afterEach(() => killAll(running));

const INVITE = '135790';
const PASSWORD = 'crash-test-password';
/** Concurrent clients in the burst: enough that several writes are in flight at the kill. */
const CLIENTS = 12;
/** The kill comes once this many writes were acknowledged. */
const KILL_AFTER_ACKS = 150;

interface SentTask {
  items: string[];
  assignees: string[];
}

interface Row {
  [column: string]: unknown;
}

/** Where the server keeps its data, and how to read it back once the server is stopped. */
interface Store {
  env: Record<string, string>;
  query(text: string): Promise<Row[]>;
  close(): Promise<void>;
}

async function openStore(): Promise<Store> {
  const dataDir = tempDir();
  if (ENGINE === 'sqlite') {
    let file: SQLite.Database | undefined;
    const open = () => (file ??= new SQLite(path.join(dataDir, 'taskmanager.db')));
    return {
      env: { DATA_DIR: dataDir },
      query: async (text) => open().prepare(text).all() as Row[],
      close: async () => void file?.close(),
    };
  }
  const database = await createPostgresDatabase();
  let client: pg.Client | undefined;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
    query: async (text) => {
      if (!client) {
        client = new pg.Client({ connectionString: database.url });
        await client.connect();
      }
      return (await client.query(text)).rows as Row[];
    },
    close: async () => {
      await client?.end();
      await database.drop();
    },
  };
}

/** Rows grouped by their task_id, in their order (Map.groupBy needs Node 21). */
function byTask(rows: Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const id = row.task_id as string;
    groups.set(id, [...(groups.get(id) ?? []), row]);
  }
  return groups;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

describe(`crash recovery (${ENGINE})`, () => {
  it('keeps every acknowledged write, whole, after kill -9 in the middle of a burst', async () => {
    const store = await openStore();
    const env = {
      ...store.env,
      PORT: '0',
      ADMIN_INVITE_TOKEN: INVITE,
      // Fixed, so that tokens issued before the crash still work after it, on both engines.
      JWT_SECRET: 'crash-recovery-test-secret-0123456789abcdef',
      AUTH_RATE_LIMIT: '100000',
      BCRYPT_COST: '4',
    };
    try {
      const first = startServer(env);
      running.push(first);
      const base = await serverUrl(first);

      const call = async (method: string, url: string, token: string | null, body?: unknown) => {
        const res = await fetch(`${base}${url}`, {
          method,
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const register = async (name: string, extra: Record<string, string> = {}) => {
        const res = await call('POST', '/api/auth/register', null, {
          name,
          email: `${name.toLowerCase().replaceAll(' ', '-')}@example.com`,
          password: PASSWORD,
          ...extra,
        });
        expect(res.status).toBe(201);
        return { id: res.body._id as string, token: res.body.token as string };
      };

      const admin = await register('Crash Admin', { adminInviteToken: INVITE });
      const members = [];
      for (let i = 0; i < 5; i++) members.push(await register(`Member ${i}`));
      const memberIds = members.map((member) => member.id);

      // What the server acknowledged with a 2xx, and what it was sent.
      const tasks = new Map<string, SentTask>();
      const ticks = new Set<string>(); // `${taskId}/${itemId}`
      const itemIds = new Map<string, string[]>();
      const unexpected: string[] = [];
      let attemptedCreates = 0;
      let inFlight = 0;
      let inFlightAtKill = -1;
      let killed = false;

      const kill = () => {
        if (killed) return;
        killed = true;
        inFlightAtKill = inFlight;
        first.child.kill('SIGKILL');
      };

      async function createTask(worker: number) {
        const items = Array.from(
          { length: between(3, 8) },
          (_, i) => `Step ${i + 1} of w${worker}`,
        );
        const assignees = [
          ...new Set(Array.from({ length: between(1, 3) }, () => pick(memberIds))),
        ];
        attemptedCreates++;
        const res = await call('POST', '/api/tasks', admin.token, {
          title: `Crash task of worker ${worker}`,
          description: 'Written during a burst that ends in kill -9',
          dueDate: '2031-05-01',
          priority: pick(['Low', 'Medium', 'High']),
          assignedTo: assignees,
          todoChecklist: items.map((text) => ({ text, completed: false })),
        });
        if (res.status !== 201) return void unexpected.push(`create: ${res.status}`);
        const task = res.body.task as { _id: string; todoChecklist: { _id: string }[] };
        tasks.set(task._id, { items, assignees });
        itemIds.set(
          task._id,
          task.todoChecklist.map((item) => item._id),
        );
      }

      async function tickItem() {
        const taskId = pick([...itemIds.keys()]);
        const itemId = pick(itemIds.get(taskId)!);
        const res = await call('PATCH', `/api/tasks/${taskId}/todo/${itemId}`, admin.token, {
          completed: true,
        });
        if (res.status !== 200) return void unexpected.push(`tick: ${res.status}`);
        ticks.add(`${taskId}/${itemId}`);
      }

      async function worker(index: number) {
        while (!killed) {
          inFlight++;
          try {
            if (itemIds.size > 5 && Math.random() < 0.5) await tickItem();
            else await createTask(index);
          } catch (error) {
            // After the kill, requests in flight fail: those writes were never acknowledged.
            if (!killed) unexpected.push(`before the kill: ${String(error)}`);
          } finally {
            inFlight--;
          }
          if (tasks.size + ticks.size >= KILL_AFTER_ACKS) kill();
        }
      }

      await Promise.all(Array.from({ length: CLIENTS }, (_, i) => worker(i)));
      expect(await first.exited).toBeNull();
      expect(first.child.signalCode).toBe('SIGKILL');
      expect(unexpected).toEqual([]);
      // The kill really came mid-burst, with writes on their way.
      expect(inFlightAtKill).toBeGreaterThan(0);
      expect(tasks.size).toBeGreaterThan(20);
      expect(ticks.size).toBeGreaterThan(20);

      // Start again on the same data: it recovers, serves what was acknowledged, and writes.
      const second = startServer(env);
      running.push(second);
      const base2 = await serverUrl(second);
      const login = await fetch(`${base2}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'crash-admin@example.com', password: PASSWORD }),
      });
      expect(login.status).toBe(200);
      const token = ((await login.json()) as { token: string }).token;
      const someTaskId = [...tasks.keys()][0]!;
      const one = await fetch(`${base2}/api/tasks/${someTaskId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(one.status).toBe(200);
      const served = (await one.json()) as { todoChecklist: { text: string }[] };
      expect(served.todoChecklist.map((item) => item.text)).toEqual(tasks.get(someTaskId)!.items);
      const after = await fetch(`${base2}/api/tasks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          title: 'Written after the crash',
          description: 'The recovered database takes writes',
          dueDate: '2031-05-02',
          assignedTo: [memberIds[0]],
          todoChecklist: [{ text: 'One' }, { text: 'Two' }, { text: 'Three' }],
        }),
      });
      expect(after.status).toBe(201);
      const afterId = ((await after.json()) as { task: { _id: string } }).task._id;
      tasks.set(afterId, { items: ['One', 'Two', 'Three'], assignees: [memberIds[0]!] });

      // Stop it cleanly, then read the data directly.
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      await waitForOutput(second, /stopped/);

      if (ENGINE === 'sqlite') {
        expect(await store.query('pragma integrity_check')).toEqual([{ integrity_check: 'ok' }]);
        expect(await store.query('pragma foreign_key_check')).toEqual([]);
      }

      const storedTasks = await store.query(
        'select id, progress, status, completed_todo_count from tasks',
      );
      const storedItems = await store.query(
        'select task_id, id, text, completed from todo_items order by task_id, position',
      );
      const storedAssignees = await store.query(
        'select task_id, user_id from task_assignees order by task_id, position',
      );
      const itemsOf = byTask(storedItems);
      const assigneesOf = byTask(storedAssignees);
      const taskIds = new Set(storedTasks.map((row) => row.id as string));

      // Nothing half-written: every stored task has all it was created with, and its counts
      // and progress agree with its items.
      const broken: string[] = [];
      for (const task of storedTasks) {
        const id = task.id as string;
        const items = (itemsOf.get(id) ?? []).map((row) => Number(row.completed) === 1);
        const assignees = assigneesOf.get(id) ?? [];
        const done = items.filter(Boolean).length;
        const progress = progressOf(items.map((completed) => ({ completed })));
        const problems = [
          items.length < 3 || items.length > 8 ? `${items.length} items` : '',
          assignees.length < 1 || assignees.length > 3 ? `${assignees.length} assignees` : '',
          Number(task.completed_todo_count) !== done
            ? `count ${String(task.completed_todo_count)}`
            : '',
          Number(task.progress) !== progress ? `progress ${String(task.progress)}` : '',
          task.status !== statusOf(progress) ? `status ${String(task.status)}` : '',
        ].filter(Boolean);
        if (problems.length > 0) broken.push(`${id}: ${problems.join(', ')}`);
      }
      expect(broken).toEqual([]);
      // No item or assignee row outlived its task.
      expect(storedItems.filter((row) => !taskIds.has(row.task_id as string))).toEqual([]);
      expect(storedAssignees.filter((row) => !taskIds.has(row.task_id as string))).toEqual([]);
      // At most the writes that were sent; at least the ones that were acknowledged.
      expect(storedTasks.length).toBeGreaterThanOrEqual(tasks.size);
      expect(storedTasks.length).toBeLessThanOrEqual(attemptedCreates + 1);

      // Every acknowledged task, with exactly the checklist and assignees it was sent.
      const lost: string[] = [];
      for (const [id, sent] of tasks) {
        const items = (itemsOf.get(id) ?? []).map((row) => row.text);
        const assignees = (assigneesOf.get(id) ?? []).map((row) => row.user_id);
        if (!taskIds.has(id)) lost.push(`task ${id} missing`);
        else if (JSON.stringify(items) !== JSON.stringify(sent.items)) lost.push(`${id} items`);
        else if (JSON.stringify(assignees) !== JSON.stringify(sent.assignees)) {
          lost.push(`${id} assignees`);
        }
      }
      // Every acknowledged tick (ticks only ever set an item done, so none can undo another).
      const completed = new Set(
        storedItems
          .filter((row) => Number(row.completed) === 1)
          .map((row) => `${row.task_id as string}/${row.id as string}`),
      );
      for (const tick of ticks) if (!completed.has(tick)) lost.push(`tick ${tick}`);
      expect(lost).toEqual([]);
    } finally {
      await killAll(running);
      await store.close();
    }
  }, 120_000);
});
