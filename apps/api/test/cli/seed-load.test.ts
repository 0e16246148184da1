import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressOf, statusOf, type Task, type TaskListResponse } from '@task-manager/shared';
import { createApp } from '../../src/app.js';
import { LOAD_ADMIN_EMAIL, LOAD_PASSWORD } from '../../src/cli/load-content.js';
import { seedLoadCommand } from '../../src/cli/load-data.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createPostgresDatabase } from '../helpers/databases.js';
import { ENGINE, testConfig } from '../helpers/test-app.js';
import { runBin, runCommand } from './run-cli.js';

const TASKS = 150;
const MEMBERS = 12;
const DAY_MS = 86_400_000;

/** The same database as the command: a SQLite file in DATA_DIR, or a new PostgreSQL database. */
let env: Record<string, string>;
let dropDatabase = async () => {};

function openSeeded(): DatabaseHandle {
  return env.DATABASE_URL
    ? openDatabase({ engine: 'postgres', url: env.DATABASE_URL, poolSize: 2 })
    : openDatabase({ engine: 'sqlite', file: path.join(env.DATA_DIR!, 'taskmanager.db') });
}

async function withDatabase<T>(use: (handle: DatabaseHandle) => Promise<T>): Promise<T> {
  const handle = openSeeded();
  try {
    return await use(handle);
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tm-seed-load-'));
  // A cheap bcrypt cost keeps the test fast; the command reads it like the server does.
  env = { DATA_DIR: dataDir, BCRYPT_COST: '4' };
  if (ENGINE === 'postgres') {
    const database = await createPostgresDatabase();
    env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
  // Somebody who was there before: the load data is added next to them, never instead.
  await withDatabase(async (handle) => {
    await migrateToLatest(handle);
    const now = new Date().toISOString();
    await handle.db
      .insertInto('users')
      .values({
        id: '00000000-0000-4000-8000-000000000001',
        name: 'Existing Admin',
        email: 'existing@example.com',
        password_hash: 'not-a-real-hash',
        role: 'admin',
        profile_image_url: null,
        token_version: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
});
afterAll(() => dropDatabase());

/** Every task with its children, straight from the tables. */
async function loadAllTasks(handle: DatabaseHandle) {
  const [tasks, assignees, items, attachments] = await Promise.all([
    handle.db.selectFrom('tasks').selectAll().orderBy('id').execute(),
    handle.db
      .selectFrom('task_assignees')
      .innerJoin('users', 'users.id', 'task_assignees.user_id')
      .select(['task_id', 'users.email', 'users.role'])
      .execute(),
    handle.db.selectFrom('todo_items').selectAll().orderBy('position').execute(),
    handle.db.selectFrom('attachments').selectAll().execute(),
  ]);
  const of = <T extends { task_id: string }>(rows: T[], id: string) =>
    rows.filter((row) => row.task_id === id);
  return tasks.map((task) => ({
    ...task,
    assignees: of(assignees, task.id),
    items: of(items, task.id).map((item) => ({ ...item, completed: item.completed === 1 })),
    attachments: of(attachments, task.id),
  }));
}

async function signIn(api: ReturnType<typeof request>, email: string) {
  const res = await api.post('/api/auth/login').send({ email, password: LOAD_PASSWORD });
  return {
    status: res.status,
    role: res.body.role,
    auth: { Authorization: `Bearer ${res.body.token}` },
  };
}

/** The printed summary's figures. */
function summary(stdout: string) {
  const match =
    /(\d+) users \(1 admin, (\d+) members\), (\d+) tasks \((\d+) pending, (\d+) in progress, (\d+) completed\), (\d+) assignments, (\d+) checklist items, (\d+) attachment links/.exec(
      stdout,
    );
  expect(match, stdout).not.toBeNull();
  const [users, members, tasks, pending, inProgress, completed, assignments, items, links] = match!
    .slice(1)
    .map(Number);
  return { users, members, tasks, pending, inProgress, completed, assignments, items, links };
}

describe(`pnpm seed:load (${ENGINE})`, () => {
  let firstIds: string[];

  it('adds an admin, members and tasks whose progress and status follow their checklists', async () => {
    const args = ['--tasks', String(TASKS), '--users', String(MEMBERS), '--seed', '7'];
    const result = await runCommand(seedLoadCommand, args, env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ in \d+\.\d s \(\d+\.\d s of CPU\)/);
    expect(result.stdout).toContain(`password: ${LOAD_PASSWORD}`);
    const printed = summary(result.stdout);
    expect(printed).toMatchObject({ users: MEMBERS + 1, members: MEMBERS, tasks: TASKS });

    const now = Date.now();
    const tasks = await withDatabase(async (handle) => {
      const users = await handle.db.selectFrom('users').select(['email', 'role']).execute();
      expect(users).toHaveLength(MEMBERS + 2);
      expect(users).toContainEqual({ email: 'existing@example.com', role: 'admin' });
      expect(users).toContainEqual({ email: LOAD_ADMIN_EMAIL, role: 'admin' });
      for (let n = 1; n <= MEMBERS; n++) {
        expect(users).toContainEqual({ email: `member${n}@load.test`, role: 'member' });
      }
      return loadAllTasks(handle);
    });
    firstIds = tasks.map((task) => task.id);

    expect(tasks).toHaveLength(TASKS);
    for (const task of tasks) {
      expect(task.items.length).toBeGreaterThanOrEqual(3);
      expect(task.items.length).toBeLessThanOrEqual(8);
      expect(task.items.map((item) => item.position)).toEqual(task.items.map((_, i) => i));
      expect(task.progress).toBe(progressOf(task.items));
      expect(task.status).toBe(statusOf(task.progress));
      expect(task.completed_todo_count).toBe(task.items.filter((item) => item.completed).length);
      expect(task.assignees.length).toBeGreaterThanOrEqual(1);
      expect(task.assignees.length).toBeLessThanOrEqual(4);
      expect(task.assignees.every((a) => a.role === 'member')).toBe(true);
      expect(task.attachments.length).toBeLessThanOrEqual(2);
      const dueInDays = (Date.parse(task.due_date) - now) / DAY_MS;
      expect(dueInDays).toBeGreaterThanOrEqual(-61);
      expect(dueInDays).toBeLessThanOrEqual(90);
      const createdDaysAgo = (now - Date.parse(task.created_at)) / DAY_MS;
      expect(createdDaysAgo).toBeGreaterThanOrEqual(0);
      expect(createdDaysAgo).toBeLessThanOrEqual(366);
      expect(Date.parse(task.updated_at)).toBeGreaterThanOrEqual(Date.parse(task.created_at));
    }
    // The spreads: every status and priority, and links on a minority of tasks.
    const count = (predicate: (task: (typeof tasks)[number]) => boolean) =>
      tasks.filter(predicate).length;
    for (const status of ['Pending', 'In Progress', 'Completed'] as const) {
      expect(count((task) => task.status === status)).toBeGreaterThan(TASKS / 6);
    }
    expect(count((task) => task.priority === 'Medium')).toBeGreaterThan(
      count((t) => t.priority === 'High'),
    );
    expect(count((task) => task.priority === 'Low')).toBeGreaterThan(0);
    const linked = count((task) => task.attachments.length > 0);
    expect(linked).toBeGreaterThan(0);
    expect(linked).toBeLessThan(TASKS * 0.25);
    // The summary counts what was written.
    expect(printed).toMatchObject({
      pending: count((task) => task.status === 'Pending'),
      inProgress: count((task) => task.status === 'In Progress'),
      completed: count((task) => task.status === 'Completed'),
      assignments: tasks.reduce((sum, task) => sum + task.assignees.length, 0),
      items: tasks.reduce((sum, task) => sum + task.items.length, 0),
      links: tasks.reduce((sum, task) => sum + task.attachments.length, 0),
    });

    // The seeded accounts sign in through the API and see what was seeded.
    await withDatabase(async (handle) => {
      const app = createApp({
        db: handle.db,
        config: testConfig,
        logger: pino({ level: 'silent' }),
      });
      const api = request(app);
      const admin = await signIn(api, LOAD_ADMIN_EMAIL);
      expect(admin.status).toBe(200);
      expect(admin.role).toBe('admin');
      const list = (await api.get('/api/tasks').set(admin.auth).expect(200))
        .body as TaskListResponse;
      expect(list.statusSummary).toEqual({
        all: TASKS,
        pendingTasks: printed.pending,
        inProgressTasks: printed.inProgress,
        completedTasks: printed.completed,
      });
      for (const task of list.tasks as Task[]) {
        expect(task.progress).toBe(progressOf(task.todoChecklist));
        expect(task.status).toBe(statusOf(task.progress));
      }

      const member = await signIn(api, 'member1@load.test');
      expect(member.status).toBe(200);
      expect(member.role).toBe('member');
      const own = (await api.get('/api/tasks').set(member.auth).expect(200))
        .body as TaskListResponse;
      const assigned = tasks.filter((task) =>
        task.assignees.some((a) => a.email === 'member1@load.test'),
      );
      expect(own.statusSummary.all).toBe(assigned.length);
      expect(own.tasks.length).toBeGreaterThan(0);
    });
  }, 60_000);

  it('refuses to add load users twice, and leaves the database alone', async () => {
    const again = await runCommand(seedLoadCommand, ['--tasks', '5', '--users', '3'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`already has ${MEMBERS + 1} load-test user(s)`);
    expect(again.stderr).toContain('--force');
    expect(again.stdout).toBe('');
    await withDatabase(async (handle) => {
      expect(await handle.db.selectFrom('tasks').select('id').execute()).toHaveLength(TASKS);
      expect(await handle.db.selectFrom('users').select('id').execute()).toHaveLength(MEMBERS + 2);
    });
  });

  it('with --force replaces the load data only, and the same seed gives the same tasks', async () => {
    const args = ['--tasks', String(TASKS), '--users', String(MEMBERS), '--seed', '7', '--force'];
    const forced = await runCommand(seedLoadCommand, ['--', ...args], env);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(
      `--force: deleted ${MEMBERS + 1} load-test user(s) and ${TASKS} task(s).`,
    );
    await withDatabase(async (handle) => {
      const tasks = await loadAllTasks(handle);
      expect(tasks.map((task) => task.id)).toEqual(firstIds);
      const emails = await handle.db.selectFrom('users').select('email').execute();
      expect(emails).toHaveLength(MEMBERS + 2);
      expect(emails).toContainEqual({ email: 'existing@example.com' });
    });

    // Another seed, other tasks.
    const other = await runCommand(
      seedLoadCommand,
      [...args.slice(0, 4), '--seed', '8', '--force'],
      env,
    );
    expect(other.code).toBe(0);
    await withDatabase(async (handle) => {
      const ids = (await loadAllTasks(handle)).map((task) => task.id);
      expect(ids).toHaveLength(TASKS);
      expect(ids.filter((id) => firstIds.includes(id))).toEqual([]);
      if (ENGINE === 'postgres') {
        // Three loads and two deletions moved task_counts' 9 rows 750 times, each a new row
        // version on PostgreSQL: the load leaves the table compact, one page, not the file
        // those versions filled (which every count of the admin's pages would read whole).
        const { rows } = await sql<{ bytes: number }>`
          select pg_relation_size('task_counts')::int as bytes`.execute(handle.db);
        expect(rows[0]!.bytes).toBe(8192);
      }
    });
  }, 60_000);

  it('rejects bad counts with exit code 1, as a bin file too', async () => {
    const bad = await runCommand(seedLoadCommand, ['--tasks', 'many', '--force'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--tasks must be a whole number of at least 0, not "many"');
    const bin = await runBin('seed-load', ['--users', '0', '--force'], env);
    expect(bin.code).toBe(1);
    expect(bin.stderr).toContain('--users must be a whole number of at least 1, not "0"');
    // Nothing changed.
    await withDatabase(async (handle) => {
      expect(await handle.db.selectFrom('tasks').select('id').execute()).toHaveLength(TASKS);
    });
  }, 60_000);
});
