import { randomUUID } from 'node:crypto';

/**
 * The load test's clients: a team of one admin and members, seeded through the API, then many
 * clients looping over reads and writes. Every task has one owner client, the only one that
 * writes to it, and each client waits for one answer before it sends the next request: so the
 * last acknowledged write to an item or a title is exactly what the server must hold at the end,
 * while different tasks are still written concurrently.
 */

export type WriteKind = 'create' | 'tick' | 'status' | 'update';
export const WRITE_KINDS: WriteKind[] = ['create', 'tick', 'status', 'update'];

const PASSWORD = 'load-test-password';
/** Share of requests that write; the rest read (the mix a team's day looks like). */
const WRITE_SHARE = 0.2;
/** One request waits at most this long before it counts as failed. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface Stats {
  /** Every answer's status; 0 for no answer (connection error or timeout). */
  statuses: Map<number, number>;
  /** Milliseconds, one per request, body included. */
  latencies: number[];
  byOperation: Map<string, { count: number; latencies: number[] }>;
  acknowledged: Record<WriteKind, number>;
  /** Unexpected answers, a few of each kind, for the report. */
  samples: string[];
  /** Per second of the run (by when each request was sent): answered and failed requests. */
  timeline: Map<number, { sent: number; failed: number; slowestMs: number }>;
  startedAt: number;
}

export function newStats(): Stats {
  return {
    statuses: new Map(),
    latencies: [],
    byOperation: new Map(),
    acknowledged: { create: 0, tick: 0, status: 0, update: 0 },
    samples: [],
    timeline: new Map(),
    startedAt: Date.now(),
  };
}

interface Answer {
  status: number;
  json: () => unknown;
}

/** One HTTP call, timed and counted under `operation`. No answer gives status 0. */
async function call(
  stats: Stats | undefined,
  operation: string,
  base: string,
  method: string,
  url: string,
  token: string | undefined,
  body?: unknown,
): Promise<Answer> {
  const started = performance.now();
  const sentAt = Date.now();
  let status = 0;
  let text = '';
  try {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    text = await res.text();
    status = res.status;
  } catch (error) {
    status = 0;
    // fetch says only "fetch failed"; the reason (reset, refused, timed out) is its cause.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    text = `${String(error)}${cause ? ` (${cause.code ?? cause.message})` : ''}`;
  }
  if (stats) {
    const ms = performance.now() - started;
    stats.latencies.push(ms);
    stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);
    const op = stats.byOperation.get(operation) ?? { count: 0, latencies: [] };
    op.count++;
    op.latencies.push(ms);
    stats.byOperation.set(operation, op);
    const second = Math.floor((sentAt - stats.startedAt) / 1000);
    const slot = stats.timeline.get(second) ?? { sent: 0, failed: 0, slowestMs: 0 };
    slot.sent++;
    if (status === 0 || status >= 500) slot.failed++;
    slot.slowestMs = Math.max(slot.slowestMs, Math.round(ms));
    stats.timeline.set(second, slot);
    if ((status < 200 || status >= 300) && stats.samples.length < 20) {
      stats.samples.push(`${operation} ${method} ${url} -> ${status} ${text.slice(0, 160)}`);
    }
  }
  return { status, json: () => JSON.parse(text) as unknown };
}

interface TaskAnswer {
  _id: string;
  title: string;
  todoChecklist: { _id: string; completed: boolean }[];
}

/** What the owner client knows a task must look like on the server. */
export interface TaskModel {
  id: string;
  owner: number;
  title: string;
  items: { id: string; completed: boolean; lastWrite: WriteKind }[];
  titleWrite: WriteKind;
  /** A write to it got no answer: its state on the server is unknown. */
  uncertain: boolean;
}

export interface Team {
  base: string;
  adminToken: string;
  memberIds: string[];
  /** The admin's and each member's e-mail, to sign in the clients. */
  adminEmail: string;
  memberEmails: string[];
  tasks: TaskModel[];
  /** Task ids assigned to each member, for the members' reads. */
  assignedTo: Map<string, string[]>;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;
const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low + 1));

/** Client `index` is one of the admin's clients (one in ten) or a member's. */
export function roleOf(index: number, clients: number, members: number) {
  const adminClients = Math.max(1, Math.round(clients / 10));
  return index < adminClients
    ? ({ kind: 'admin' } as const)
    : ({ kind: 'member', member: (index - adminClients) % members } as const);
}

function taskBody(title: string, assignees: string[]) {
  return {
    title,
    description: 'Created by the load test: a realistic paragraph of task details.',
    priority: pick(['Low', 'Medium', 'High']),
    dueDate: new Date(Date.now() + between(-5, 30) * 86_400_000).toISOString().slice(0, 10),
    assignedTo: assignees,
    todoChecklist: Array.from({ length: between(3, 8) }, (_, i) => ({
      text: `Step ${i + 1}`,
      completed: false,
    })),
    attachments: ['https://example.com/brief.pdf'],
  };
}

function modelOf(task: TaskAnswer, owner: number, kind: WriteKind): TaskModel {
  return {
    id: task._id,
    owner,
    title: task.title,
    items: task.todoChecklist.map((item) => ({
      id: item._id,
      completed: item.completed,
      lastWrite: kind,
    })),
    titleWrite: kind,
    uncertain: false,
  };
}

async function mapLimit<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

function expectStatus(answer: Answer, status: number, what: string) {
  if (answer.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${answer.status}`);
  }
}

/**
 * The admin (with the invite token), `members` members and `taskCount` tasks, each with 3-8
 * items and 1-3 assignees. A task owned by a member's client is assigned to that member first.
 */
export async function seedTeam(options: {
  base: string;
  inviteToken: string;
  members: number;
  tasks: number;
  clients: number;
}): Promise<Team> {
  const { base } = options;
  const run = randomUUID().slice(0, 8);
  const adminEmail = `load-admin-${run}@example.com`;
  const admin = await call(undefined, 'seed', base, 'POST', '/api/auth/register', undefined, {
    name: 'Load Admin',
    email: adminEmail,
    password: PASSWORD,
    adminInviteToken: options.inviteToken,
  });
  expectStatus(admin, 201, 'registering the admin');
  const adminToken = (admin.json() as { token: string }).token;

  const memberEmails = Array.from(
    { length: options.members },
    (_, i) => `load-member-${i}-${run}@example.com`,
  );
  const memberIds = await mapLimit(memberEmails, 4, async (email) => {
    const answer = await call(undefined, 'seed', base, 'POST', '/api/auth/register', undefined, {
      name: `Member ${email.split('-')[2]}`,
      email,
      password: PASSWORD,
    });
    expectStatus(answer, 201, `registering ${email}`);
    return (answer.json() as { _id: string })._id;
  });

  const assignedTo = new Map<string, string[]>(memberIds.map((id) => [id, []]));
  const tasks = await mapLimit(
    Array.from({ length: options.tasks }, (_, i) => i),
    8,
    async (index) => {
      const owner = index % options.clients;
      const role = roleOf(owner, options.clients, options.members);
      const first = role.kind === 'member' ? memberIds[role.member]! : pick(memberIds);
      const assignees = [
        ...new Set([first, ...Array.from({ length: between(0, 2) }, () => pick(memberIds))]),
      ];
      const answer = await call(
        undefined,
        'seed',
        base,
        'POST',
        '/api/tasks',
        adminToken,
        taskBody(`Seeded task ${index}`, assignees),
      );
      expectStatus(answer, 201, `creating seeded task ${index}`);
      const task = (answer.json() as { task: TaskAnswer }).task;
      for (const id of assignees) assignedTo.get(id)!.push(task._id);
      return modelOf(task, owner, 'create');
    },
  );
  return { base, adminToken, memberIds, adminEmail, memberEmails, tasks, assignedTo };
}

/** Signs every client in (each once, as a person would), in parallel batches. */
export async function signInClients(team: Team, clients: number): Promise<string[]> {
  return mapLimit(
    Array.from({ length: clients }, (_, i) => i),
    8,
    async (index) => {
      const role = roleOf(index, clients, team.memberIds.length);
      const email = role.kind === 'admin' ? team.adminEmail : team.memberEmails[role.member]!;
      const answer = await call(
        undefined,
        'seed',
        team.base,
        'POST',
        '/api/auth/login',
        undefined,
        {
          email,
          password: PASSWORD,
        },
      );
      expectStatus(answer, 200, `signing in client ${index}`);
      return (answer.json() as { token: string }).token;
    },
  );
}

/**
 * One client's loop until `until` (a Date.now() value): 80% reads, 20% writes to the tasks it
 * owns (and, for the admin's clients, new tasks).
 */
export async function runClient(
  team: Team,
  stats: Stats,
  index: number,
  clients: number,
  token: string,
  until: number,
): Promise<void> {
  const role = roleOf(index, clients, team.memberIds.length);
  const { base } = team;
  // Its own tasks; a task whose state became unknown is left alone from then on.
  const mine = team.tasks.filter((task) => task.owner === index);
  const owned = () => mine.filter((task) => !task.uncertain);
  const readable =
    role.kind === 'admin'
      ? () => team.tasks
      : () => team.assignedTo.get(team.memberIds[role.member]!)!.map((id) => ({ id }));
  let version = 0;

  /** Applies an answered write to the model; an unanswered one makes the task unknown. */
  const settle = (answer: Answer, task: TaskModel, kind: WriteKind, apply: () => void) => {
    if (answer.status >= 200 && answer.status < 300) {
      stats.acknowledged[kind]++;
      apply();
    } else if (answer.status === 0 || answer.status >= 500) {
      task.uncertain = true;
    }
  };

  const reads: (() => Promise<unknown>)[] = [
    () => call(stats, 'read: task page', base, 'GET', '/api/tasks', token),
    () =>
      call(
        stats,
        'read: task page by status',
        base,
        'GET',
        `/api/tasks?status=${encodeURIComponent(pick(['Pending', 'In Progress', 'Completed']))}`,
        token,
      ),
    () => call(stats, 'read: one task', base, 'GET', `/api/tasks/${pick(readable()).id}`, token),
    () => call(stats, 'read: one task', base, 'GET', `/api/tasks/${pick(readable()).id}`, token),
    role.kind === 'admin'
      ? () => call(stats, 'read: admin dashboard', base, 'GET', '/api/tasks/dashboard-data', token)
      : () =>
          call(
            stats,
            'read: member dashboard',
            base,
            'GET',
            '/api/tasks/user-dashboard-data',
            token,
          ),
    () => call(stats, 'read: profile', base, 'GET', '/api/auth/profile', token),
    ...(role.kind === 'admin'
      ? [() => call(stats, 'read: team members', base, 'GET', '/api/users', token)]
      : []),
  ];

  const tick = async (task: TaskModel) => {
    const item = pick(task.items);
    const completed = !item.completed;
    const answer = await call(
      stats,
      'write: tick an item',
      base,
      'PATCH',
      `/api/tasks/${task.id}/todo/${item.id}`,
      token,
      { completed },
    );
    settle(answer, task, 'tick', () => {
      item.completed = completed;
      item.lastWrite = 'tick';
    });
  };

  const changeStatus = async (task: TaskModel) => {
    const done = task.items.filter((item) => item.completed).length;
    const status =
      done === 0
        ? 'Completed'
        : done === task.items.length
          ? 'Pending'
          : pick(['Completed', 'Pending', 'In Progress']);
    const answer = await call(
      stats,
      'write: change status',
      base,
      'PUT',
      `/api/tasks/${task.id}/status`,
      token,
      { status },
    );
    settle(answer, task, 'status', () => {
      if (status === 'In Progress') return;
      for (const item of task.items) {
        item.completed = status === 'Completed';
        item.lastWrite = 'status';
      }
    });
  };

  const update = async (task: TaskModel) => {
    const title = `Task of client ${index}, version ${++version}`;
    const answer = await call(
      stats,
      'write: update a task',
      base,
      'PUT',
      `/api/tasks/${task.id}`,
      token,
      { title, priority: pick(['Low', 'Medium', 'High']) },
    );
    settle(answer, task, 'update', () => {
      task.title = title;
      task.titleWrite = 'update';
    });
  };

  const create = async () => {
    const assignees = [
      ...new Set(Array.from({ length: between(1, 3) }, () => pick(team.memberIds))),
    ];
    const answer = await call(
      stats,
      'write: create a task',
      base,
      'POST',
      '/api/tasks',
      token,
      taskBody(`Created by client ${index}`, assignees),
    );
    if (answer.status === 201) {
      stats.acknowledged.create++;
      const task = modelOf((answer.json() as { task: TaskAnswer }).task, index, 'create');
      team.tasks.push(task);
      mine.push(task);
    }
  };

  while (Date.now() < until) {
    const writable = owned();
    if (Math.random() >= WRITE_SHARE || (writable.length === 0 && role.kind === 'member')) {
      await pick(reads)();
      continue;
    }
    // The admin's clients create and edit tasks; everyone ticks items and changes statuses.
    const roll = Math.random();
    if (role.kind === 'admin' && (roll < 0.4 || writable.length === 0)) await create();
    else if (role.kind === 'admin' && roll < 0.55) await update(pick(writable));
    else if (Math.random() < 0.75) await tick(pick(writable));
    else await changeStatus(pick(writable));
  }
}

export interface Verification {
  acknowledged: Record<WriteKind, number>;
  /** Acknowledged writes whose effect is not on the server. */
  lost: Record<WriteKind, number>;
  /** Tasks left out because a write to them got no answer. */
  unknown: number;
  examples: string[];
}

/**
 * Reads every task back through the API as the admin and compares it with what its owner
 * was told: each acknowledged task exists, and each item and title holds its last acknowledged
 * value. A difference is charged to the kind of write that set that value last.
 */
export async function verifyTeam(team: Team, stats: Stats): Promise<Verification> {
  const lost: Record<WriteKind, number> = { create: 0, tick: 0, status: 0, update: 0 };
  const examples: string[] = [];
  const note = (kind: WriteKind, text: string) => {
    lost[kind]++;
    if (examples.length < 20) examples.push(text);
  };
  let unknown = 0;
  await mapLimit(team.tasks, 16, async (task) => {
    const answer = await call(
      undefined,
      'verify',
      team.base,
      'GET',
      `/api/tasks/${task.id}`,
      team.adminToken,
    );
    if (answer.status === 404) return note('create', `task ${task.id} is missing`);
    expectStatus(answer, 200, `reading task ${task.id} back`);
    if (task.uncertain) return void unknown++;
    const stored = answer.json() as TaskAnswer;
    if (stored.title !== task.title) {
      note(task.titleWrite, `task ${task.id}: title "${stored.title}", expected "${task.title}"`);
    }
    const completed = new Map(stored.todoChecklist.map((item) => [item._id, item.completed]));
    for (const item of task.items) {
      if (completed.get(item.id) !== item.completed) {
        note(
          item.lastWrite,
          `task ${task.id} item ${item.id}: expected completed=${item.completed}`,
        );
      }
    }
  });
  return { acknowledged: { ...stats.acknowledged }, lost, unknown, examples };
}
