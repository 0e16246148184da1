import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  progressOf,
  statusOf,
  type Task,
  type TaskListResponse,
  type UserWithTaskCounts,
} from '@task-manager/shared';
import { createApp } from '../../src/app.js';
import { demoMembers, demoTasks } from '../../src/cli/demo-content.js';
import { seedDemoCommand } from '../../src/cli/demo-team.js';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { createPostgresDatabase } from '../helpers/databases.js';
import { ENGINE, testConfig } from '../helpers/test-app.js';
import { runBin, runCommand } from './run-cli.js';

/** The same database as the command: a SQLite file in DATA_DIR, or a new PostgreSQL database. */
let env: Record<string, string>;
let dropDatabase = async () => {};

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tm-seed-'));
  // A cheap bcrypt cost keeps the test fast; the command reads it like the server does.
  env = { DATA_DIR: dataDir, BCRYPT_COST: '4', PORT: '8123' };
  if (ENGINE === 'postgres') {
    const database = await createPostgresDatabase();
    env.DATABASE_URL = database.url;
    dropDatabase = database.drop;
  }
});
afterAll(() => dropDatabase());

function openSeeded(): DatabaseHandle {
  return env.DATABASE_URL
    ? openDatabase({ engine: 'postgres', url: env.DATABASE_URL, poolSize: 2 })
    : openDatabase({ engine: 'sqlite', file: path.join(env.DATA_DIR!, 'taskmanager.db') });
}

/** Who owns each stored image, by image id. */
async function photoOwners(): Promise<Map<string, string | null>> {
  const handle = openSeeded();
  try {
    const rows = await handle.db.selectFrom('images').select(['id', 'owner_id']).execute();
    return new Map(rows.map((row) => [row.id, row.owner_id]));
  } finally {
    await handle.close();
  }
}

/** The printed credentials. */
function credentials(stdout: string) {
  const admin = /admin: +(\S+) +password: (\S+)/.exec(stdout);
  const member = /member: +(\S+) +password: (\S+)/.exec(stdout);
  expect(admin, stdout).not.toBeNull();
  expect(member, stdout).not.toBeNull();
  return {
    admin: { email: admin![1]!, password: admin![2]! },
    member: { email: member![1]!, password: member![2]! },
  };
}

/** The seeded database through the real app: what a person signing in would get. */
async function withApp<T>(use: (api: ReturnType<typeof request>) => Promise<T>): Promise<T> {
  const handle = openSeeded();
  try {
    const app = createApp({ db: handle.db, config: testConfig, logger: pino({ level: 'silent' }) });
    return await use(request(app));
  } finally {
    await handle.close();
  }
}

async function signIn(api: ReturnType<typeof request>, email: string, password: string) {
  const res = await api.post('/api/auth/login').send({ email, password });
  return {
    status: res.status,
    auth: { Authorization: `Bearer ${res.body.token}` },
    body: res.body,
  };
}

function doneCount(task: Task) {
  return task.todoChecklist.filter((item) => item.completed).length;
}

describe(`pnpm seed:demo (${ENGINE})`, () => {
  let first: ReturnType<typeof credentials>;

  it('adds a demo team with photos, tasks in every state and a way to sign in', async () => {
    const result = await runCommand(seedDemoCommand, [], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Open http://localhost:8123 and sign in');
    expect(result.stdout).toContain(`9 users, ${demoTasks.length} tasks`);
    first = credentials(result.stdout);

    await withApp(async (api) => {
      const admin = await signIn(api, first.admin.email, first.admin.password);
      expect(admin.status).toBe(200);
      expect(admin.body.role).toBe('admin');

      // Eight members, each with a photo of their own that the image endpoint serves, linked by
      // its path on this server (whatever address the server is reached at).
      const members = (await api.get('/api/users?role=member').set(admin.auth).expect(200))
        .body as UserWithTaskCounts[];
      expect(members.map((m) => m.email).sort()).toEqual(demoMembers.map((m) => m.email).sort());
      const formats = new Set<string>();
      const owners = await photoOwners();
      for (const member of members) {
        const path = member.profileImageUrl ?? '';
        expect(path).toMatch(/^\/api\/images\/[0-9a-f-]{36}$/);
        expect(owners.get(path.split('/').pop()!)).toBe(member._id);
        const image = await api
          .get(path)
          .buffer(true)
          .parse((res, callback) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => callback(null, Buffer.concat(chunks)));
          })
          .expect(200);
        const meta = await sharp(image.body as Buffer).metadata();
        expect(`image/${meta.format}`).toBe(image.headers['content-type']);
        expect([meta.width, meta.height]).toEqual([128, 128]);
        formats.add(meta.format!);
        // Everyone has work to do.
        expect(
          member.pendingTasks + member.inProgressTasks + member.completedTasks,
        ).toBeGreaterThan(0);
      }
      expect([...formats]).toEqual(['webp']);

      const list = (await api.get('/api/tasks').set(admin.auth).expect(200))
        .body as TaskListResponse;
      expect(list.tasks).toHaveLength(demoTasks.length);
      const now = Date.now();
      const states = new Set<string>();
      for (const task of list.tasks) {
        expect(task.assignedTo.length).toBeGreaterThanOrEqual(1);
        expect(task.assignedTo.length).toBeLessThanOrEqual(3);
        expect(task.todoChecklist.length).toBeGreaterThanOrEqual(3);
        // Progress and status follow the checklist, as the service computes them.
        expect(task.progress).toBe(progressOf(task.todoChecklist));
        expect(task.status).toBe(statusOf(task.progress));
        expect(task.completedTodoCount).toBe(doneCount(task));
        expect(Date.parse(task.createdAt)).toBeLessThanOrEqual(now);
        const done = doneCount(task);
        states.add(done === 0 ? 'none' : done === task.todoChecklist.length ? 'all' : 'some');
      }
      expect([...states].sort()).toEqual(['all', 'none', 'some']);
      const overdue = list.tasks.filter(
        (task) => Date.parse(task.dueDate) < now && task.status !== 'Completed',
      );
      expect(overdue.length).toBeGreaterThanOrEqual(2);
      expect(list.tasks.some((task) => Date.parse(task.dueDate) > now)).toBe(true);
      expect(
        list.tasks.filter((task) => task.attachments.length > 0).length,
      ).toBeGreaterThanOrEqual(3);
      expect(list.statusSummary.pendingTasks).toBeGreaterThan(0);
      expect(list.statusSummary.inProgressTasks).toBeGreaterThan(0);
      expect(list.statusSummary.completedTasks).toBeGreaterThan(0);

      const dashboard = await api.get('/api/tasks/dashboard-data').set(admin.auth).expect(200);
      expect(dashboard.body.statistics.totalTasks).toBe(demoTasks.length);
      expect(dashboard.body.statistics.overdueTasks).toBe(overdue.length);

      // The printed member password works, and that member sees their own tasks only.
      const member = await signIn(api, first.member.email, first.member.password);
      expect(member.status).toBe(200);
      expect(member.body.role).toBe('member');
      const own = (await api.get('/api/tasks').set(member.auth).expect(200))
        .body as TaskListResponse;
      expect(own.tasks.length).toBeGreaterThan(0);
      for (const task of own.tasks) {
        expect(task.assignedTo.map((a) => a.email)).toContain(first.member.email);
      }

      // The member was told about their tasks (issue 17): assignments, and reminders.
      const notes = (await api.get('/api/notifications').set(member.auth).expect(200)).body
        .items as Array<{ type: string; task: { _id: string } | null }>;
      expect(notes.filter((n) => n.type === 'assigned')).toHaveLength(own.tasks.length);
      const unread = await api.get('/api/notifications/unread-count').set(member.auth).expect(200);
      expect(unread.body.count).toBe(notes.length);
    });
  }, 60_000);

  it('refuses a database that already has users, and leaves it alone', async () => {
    const again = await runCommand(seedDemoCommand, [], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already has 9 user(s)');
    expect(again.stderr).toContain('--force');
    expect(again.stdout).toBe('');
    await withApp(async (api) => {
      const admin = await signIn(api, first.admin.email, first.admin.password);
      expect(admin.status).toBe(200);
      const list = await api.get('/api/tasks').set(admin.auth).expect(200);
      expect(list.body.tasks).toHaveLength(demoTasks.length);
    });
  });

  it('replaces everything with a new demo team with --force', async () => {
    const forced = await runCommand(seedDemoCommand, ['--', '--force'], env);
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`--force: deleted 9 user(s) and ${demoTasks.length} task(s).`);
    const second = credentials(forced.stdout);
    expect(second.admin.password).not.toBe(first.admin.password);
    await withApp(async (api) => {
      expect((await signIn(api, first.admin.email, first.admin.password)).status).toBe(401);
      const admin = await signIn(api, second.admin.email, second.admin.password);
      expect(admin.status).toBe(200);
      const list = await api.get('/api/tasks').set(admin.auth).expect(200);
      expect(list.body.tasks).toHaveLength(demoTasks.length);
      // Eight members and the admin: the list shows everyone (issue 18).
      const members = await api.get('/api/users?role=member').set(admin.auth).expect(200);
      expect(members.body).toHaveLength(8);
      const everyone = await api.get('/api/users').set(admin.auth).expect(200);
      expect(everyone.body).toHaveLength(9);
    });
    // The old photos went with the old users.
    const handle = openSeeded();
    try {
      const images = await handle.db
        .selectFrom('images')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      expect(Number(images.count)).toBe(9);
    } finally {
      await handle.close();
    }
  }, 60_000);

  it('as a bin file: refuses with exit code 1, and no longer takes --url', async () => {
    const bin = await runBin('seed-demo', [], env);
    expect(bin.code).toBe(1);
    expect(bin.stderr).toContain('already has 9 user(s)');
    // Photo links are relative now: the address the app is opened at does not matter.
    const url = await runCommand(seedDemoCommand, ['--url', 'https://tasks.example.com'], env);
    expect(url.code).toBe(1);
    expect(url.stderr).toContain("Unknown option '--url'");
    expect(url.stderr).toContain('Usage: pnpm seed:demo [--force]');
    expect(url.stderr).not.toContain('    at ');
  }, 60_000);
});
