import type { Request } from 'autocannon';
import type { Workload } from './bench-measure.js';

/** The accounts seed:load makes (apps/api/src/cli/load-content.ts). */
export const LOAD_ADMIN_EMAIL = 'admin@load.test';
export const LOAD_PASSWORD = 'load-test-password';
const memberEmail = (n: number) => `member${n}@load.test`;

/** The member whose pages and ticks are measured. */
const BENCH_MEMBER = 1;
/** Sign-ins rotate over this many members (every one has the same password). */
const SIGN_IN_MEMBERS = 50;
/**
 * The title of the tasks the creation workload makes. cleanUp finds them by it: requests still in
 * flight when a run stops create tasks whose answers nobody reads.
 */
const CREATED_TITLE = 'Benchmark task (pnpm bench deletes it)';
/** Tasks GET /api/tasks/:id rotates over: the admin's first pages. */
const ROTATED_TASKS = 500;

interface SignedIn {
  id: string;
  token: string;
}

interface ApiTask {
  _id: string;
  todoChecklist: Array<{ _id: string; completed: boolean }>;
}

interface TaskPage {
  tasks: ApiTask[];
  statusSummary: { all: number };
  nextCursor?: string | null;
}

/** What the workloads need from the seeded database, read once through the API. */
export interface BenchSession {
  url: string;
  admin: SignedIn;
  member: SignedIn;
  taskIds: string[];
  /** Checklist items of tasks assigned to the member, with their state before the benchmark. */
  items: Array<{ taskId: string; itemId: string; completed: boolean }>;
  /** Bytes of the admin's first task page, the size the baseline answers with. */
  taskPageBytes: number;
  /** The ETag of the admin's first task page, for the conditional GET's figure. */
  taskPageETag: string;
}

async function call(url: string, path: string, init: RequestInit & { token?: string } = {}) {
  const { token, ...rest } = init;
  const res = await fetch(new URL(path, url), {
    ...rest,
    headers: {
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
  });
  const text = await res.text();
  if (!res.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return {
    text,
    body: text ? (JSON.parse(text) as unknown) : undefined,
    etag: res.headers.get('etag') ?? '',
  };
}

async function signIn(url: string, email: string): Promise<SignedIn> {
  const { body } = await call(url, '/api/auth/login', {
    method: 'POST',
    body: JSON.stringify({ email, password: LOAD_PASSWORD }),
  });
  const { _id, token } = body as { _id: string; token: string };
  return { id: _id, token };
}

/** `expectedTasks`: what was seeded; a run that died before cleaning up leaves more. */
export async function openSession(url: string, expectedTasks: number): Promise<BenchSession> {
  const [admin, member] = await Promise.all([
    signIn(url, LOAD_ADMIN_EMAIL),
    signIn(url, memberEmail(BENCH_MEMBER)),
  ]);
  const firstPage = await call(url, '/api/tasks', { token: admin.token });
  const total = (firstPage.body as TaskPage).statusSummary.all;
  if (total !== expectedTasks) {
    throw new Error(
      `The benchmark database holds ${total} tasks, not the ${expectedTasks} it was seeded with ` +
        `(an earlier run stopped before cleaning up?). Delete it from tools/bench/results ` +
        `(or drop the bench_* database) and run again to seed it afresh.`,
    );
  }
  const taskIds = (firstPage.body as TaskPage).tasks.map((task) => task._id);
  let cursor = (firstPage.body as TaskPage).nextCursor;
  while (cursor && taskIds.length < ROTATED_TASKS) {
    const page = (await call(url, `/api/tasks?cursor=${cursor}`, { token: admin.token }))
      .body as TaskPage;
    taskIds.push(...page.tasks.map((task) => task._id));
    cursor = page.nextCursor;
  }
  const own = (await call(url, '/api/tasks', { token: member.token })).body as TaskPage;
  // The first item of every task, then every second item, and so on: requests in flight at the
  // same moment tick different tasks, as many people would, rather than queue on one task's lock.
  const items = own.tasks
    .flatMap((task) =>
      task.todoChecklist.map((item, position) => ({
        position,
        taskId: task._id,
        itemId: item._id,
        completed: item.completed,
      })),
    )
    .sort((a, b) => a.position - b.position)
    .map(({ position: _, ...item }) => item);
  if (taskIds.length === 0 || items.length === 0) {
    throw new Error('The seeded database has no tasks for the benchmark accounts.');
  }
  return {
    url,
    admin,
    member,
    taskIds: taskIds.slice(0, ROTATED_TASKS),
    items,
    taskPageBytes: Buffer.byteLength(firstPage.text),
    taskPageETag: firstPage.etag,
  };
}

const bearer = (who: SignedIn) => ({ authorization: `Bearer ${who.token}` });

/** Connections of the search and filter figures: the goal is p50 < 20 ms at 8. */
const FINDING_WORK_CONNECTIONS = 8;
/** Issue 22's goal for every search and filter row: p50 under this, at 8 connections. */
const FINDING_WORK_P50_MS = 20;

/**
 * Search and filter combinations of the task list (issue 22), each a first page with its
 * status summary, at 8 connections. The load data has no labels, so the label filter is
 * measured by the query-plans test only.
 */
function findingWork(admin: SignedIn, member: SignedIn): Scenario[] {
  const list = (key: string, label: string, who: SignedIn, query: string): Scenario => ({
    key,
    label: `GET /api/tasks?${label} (8 connections)`,
    connections: FINDING_WORK_CONNECTIONS,
    p50BudgetMs: FINDING_WORK_P50_MS,
    workload: { path: `/api/tasks?${query}`, headers: bearer(who) },
  });
  return [
    list('searchCommon', 'q=budget', admin, 'q=budget'),
    list('searchPrefix', 'q=quart budg', admin, 'q=quart%20budg'),
    list('searchRare', 'q=berlin onboarding', admin, 'q=berlin%20onboarding'),
    list('searchMember', 'q=review (member)', member, 'q=review'),
    list('filterOverdue', 'due=overdue', admin, 'due=overdue'),
    list(
      'filterWeekHigh',
      'due=week&priority=High',
      admin,
      'due=week&priority=High&tz=Europe%2FBerlin',
    ),
    list(
      'filterAssignee',
      'assignee=<member>&sort=dueDate',
      admin,
      `assignee=${member.id}&sort=dueDate`,
    ),
    list(
      'filterPriorityTitle',
      'priority=High,Medium&sort=title',
      admin,
      'priority=High%2CMedium&sort=title',
    ),
    list('sortPriority', 'sort=priority', admin, 'sort=priority'),
    list('sortDueDate', 'sort=dueDate&status=Pending', admin, 'sort=dueDate&status=Pending'),
    list(
      'searchCombined',
      'q=review&priority=High&due=later&sort=dueDate',
      admin,
      'q=review&priority=High&due=later&sort=dueDate',
    ),
    list('searchTitle', 'q=review&sort=title', admin, 'q=review&sort=title'),
    list(
      'searchTabUpdated',
      'q=budget&status=Pending&sort=updatedAt',
      admin,
      'q=budget&status=Pending&sort=updatedAt',
    ),
    list(
      'searchOverdue',
      'q=review&due=overdue&sort=dueDate&order=desc',
      admin,
      'q=review&due=overdue&sort=dueDate&order=desc',
    ),
    list(
      'filterOverdueUpdated',
      'priority=Low&due=overdue&sort=updatedAt',
      admin,
      'priority=Low&due=overdue&sort=updatedAt',
    ),
  ];
}

/** A counter shared by all connections: each request takes the next one. */
function rotation() {
  let next = 0;
  return () => next++;
}

export interface Scenario {
  key: string;
  label: string;
  workload: Workload;
  /** Fewer connections than the run's, where a deliberate cost makes the fixed count meaningless. */
  connections?: number;
  /** An open model: requests arrive at this rate whatever the latency (see measure). */
  ratePerSec?: number;
  /** The answer expected when it is no 2xx (a 304): not counted as an error. */
  expectedStatus?: number;
  /** A goal for its p50, checked in the budgets table. */
  p50BudgetMs?: number;
}

/** The open model's arrival rate of task pages (issue 19: p99 under 25 ms at 200/s). */
export const OPEN_MODEL_RATE = 200;
/** The open model's arrival rate of the real mix (issue 19: p99 under 25 ms at 400/s). */
export const MIXED_OPEN_MODEL_RATE = 400;

/**
 * The real mix of the open model, 20 requests a round: what a team's clients send over a day,
 * reads far ahead of writes (task pages, one task, dashboards, checklist ticks, task creation).
 */
type MixedRequest =
  'adminPage' | 'memberPage' | 'oneTask' | 'adminDashboard' | 'memberDashboard' | 'tick' | 'create';
const MIX: MixedRequest[] = [
  ...Array<MixedRequest>(4).fill('adminPage'),
  ...Array<MixedRequest>(3).fill('memberPage'),
  ...Array<MixedRequest>(5).fill('oneTask'),
  ...Array<MixedRequest>(2).fill('adminDashboard'),
  ...Array<MixedRequest>(2).fill('memberDashboard'),
  ...Array<MixedRequest>(3).fill('tick'),
  'create',
];

/** Every measured endpoint, in the order they run (reads first, then the writes). */
export function scenarios(session: BenchSession): Scenario[] {
  const { admin, member, taskIds, items } = session;
  const nextTask = rotation();
  const nextTick = rotation();
  const nextSignIn = rotation();
  const dueDate = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const newTask = JSON.stringify({
    title: CREATED_TITLE,
    description: 'Made by pnpm bench and deleted again when it ends.',
    priority: 'Medium',
    dueDate,
    assignedTo: [member.id],
    todoChecklist: [{ text: 'First step' }, { text: 'Second step' }, { text: 'Third step' }],
  });
  /** The next tick: each round over the items flips them; cleanUp puts every one back. */
  const tick = () => {
    const n = nextTick();
    const item = items[n % items.length]!;
    const flipped = Math.floor(n / items.length) % 2 === 0;
    return {
      path: `/api/tasks/${item.taskId}/todo/${item.itemId}`,
      body: JSON.stringify({ completed: flipped ? !item.completed : item.completed }),
    };
  };
  const oneTaskPath = () => `/api/tasks/${taskIds[nextTask() % taskIds.length]}`;
  const json = { 'content-type': 'application/json' };
  const nextMixed = rotation();
  /** The mix's next request (see MIX), as autocannon sends it. */
  const mixed = (request: Request): Request => {
    const kind = MIX[nextMixed() % MIX.length]!;
    const get = (path: string, who: SignedIn): Request => ({
      ...request,
      method: 'GET',
      path,
      headers: bearer(who),
      body: undefined,
    });
    switch (kind) {
      case 'adminPage':
        return get('/api/tasks', admin);
      case 'memberPage':
        return get('/api/tasks', member);
      case 'oneTask':
        return get(oneTaskPath(), admin);
      case 'adminDashboard':
        return get('/api/tasks/dashboard-data', admin);
      case 'memberDashboard':
        return get('/api/tasks/user-dashboard-data', member);
      case 'tick':
        return { ...request, method: 'PATCH', headers: { ...bearer(member), ...json }, ...tick() };
      case 'create':
        return {
          ...request,
          method: 'POST',
          path: '/api/tasks',
          headers: { ...bearer(admin), ...json },
          body: newTask,
        };
    }
  };
  return [
    {
      key: 'taskPage',
      label: 'GET /api/tasks (admin, first page)',
      workload: { path: '/api/tasks', headers: bearer(admin) },
    },
    {
      key: 'statusTab',
      label: 'GET /api/tasks?status=In Progress',
      workload: { path: '/api/tasks?status=In%20Progress', headers: bearer(admin) },
    },
    {
      key: 'memberTaskPage',
      label: 'GET /api/tasks (member)',
      workload: { path: '/api/tasks', headers: bearer(member) },
    },
    {
      key: 'taskPageCards',
      label: 'GET /api/tasks?view=card (admin, the web app)',
      workload: { path: '/api/tasks?view=card', headers: bearer(admin) },
    },
    {
      // What the web app's request costs: Chromium asks for brotli, and the page is compressed.
      key: 'taskPageCardsBrotli',
      label: 'GET /api/tasks?view=card, Accept-Encoding as Chromium sends it (brotli)',
      workload: {
        path: '/api/tasks?view=card',
        headers: { ...bearer(admin), 'accept-encoding': 'gzip, deflate, br, zstd' },
      },
    },
    {
      key: 'taskPageNotModified',
      label: 'GET /api/tasks, If-None-Match → 304 (admin)',
      workload: {
        path: '/api/tasks',
        headers: { ...bearer(admin), 'if-none-match': session.taskPageETag },
      },
      expectedStatus: 304,
    },
    {
      key: 'taskPageOpen',
      label: `GET /api/tasks (admin) arriving at ${OPEN_MODEL_RATE}/s (open model)`,
      // Evenly spaced arrivals, each on a free socket (open-model.ts).
      ratePerSec: OPEN_MODEL_RATE,
      workload: { path: '/api/tasks', headers: bearer(admin) },
    },
    ...findingWork(admin, member),
    {
      key: 'oneTask',
      label: 'GET /api/tasks/:id',
      workload: {
        path: '/api/tasks',
        headers: bearer(admin),
        requests: [
          {
            setupRequest: (request) => {
              request.path = oneTaskPath();
              return request;
            },
          },
        ],
      },
    },
    {
      key: 'adminDashboard',
      label: 'GET /api/tasks/dashboard-data',
      workload: { path: '/api/tasks/dashboard-data', headers: bearer(admin) },
    },
    {
      key: 'memberDashboard',
      label: 'GET /api/tasks/user-dashboard-data',
      workload: { path: '/api/tasks/user-dashboard-data', headers: bearer(member) },
    },
    {
      key: 'tick',
      label: 'PATCH /api/tasks/:id/todo/:itemId',
      workload: {
        path: '/api/tasks',
        method: 'PATCH',
        headers: { ...bearer(member), 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => ({ ...request, ...tick() }),
          },
        ],
      },
    },
    {
      key: 'mixedOpen',
      label: `the real mix (pages, one task, dashboards, ticks, creates) arriving at ${MIXED_OPEN_MODEL_RATE}/s (open model)`,
      ratePerSec: MIXED_OPEN_MODEL_RATE,
      workload: { path: '/api/tasks', headers: bearer(admin), requests: [{ setupRequest: mixed }] },
    },
    {
      key: 'createTask',
      label: 'POST /api/tasks',
      workload: {
        path: '/api/tasks',
        method: 'POST',
        headers: { ...bearer(admin), 'content-type': 'application/json' },
        body: newTask,
      },
    },
    {
      key: 'login',
      label: 'POST /api/auth/login (4 connections)',
      // bcrypt at cost 12 is slow on purpose (~0.3 s of one core per check): 32 sign-ins at
      // once would only measure a queue, and time out. 4 keep both cores busy.
      connections: 4,
      workload: {
        path: '/api/auth/login',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => {
              const n = (nextSignIn() % SIGN_IN_MEMBERS) + 1;
              request.body = JSON.stringify({ email: memberEmail(n), password: LOAD_PASSWORD });
              return request;
            },
          },
        ],
      },
    },
  ];
}

/** Runs `work` over `inputs` with a few requests in flight at once. */
async function inParallel<T>(inputs: T[], work: (input: T) => Promise<unknown>, width = 8) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < inputs.length) await work(inputs[next++]!);
    }),
  );
}

/**
 * Leaves the database as it was, so that the next run on it measures the same data: the created
 * tasks are deleted and every checklist item gets its first state back.
 */
export async function cleanUp(session: BenchSession): Promise<void> {
  const { url, admin, member } = session;
  // The newest tasks come first, and nothing seeded is newer than a benchmark task.
  for (;;) {
    const page = (await call(url, '/api/tasks?limit=500', { token: admin.token })).body as {
      tasks: Array<{ _id: string; title: string }>;
    };
    const created = page.tasks.filter((task) => task.title === CREATED_TITLE);
    if (created.length === 0) break;
    await inParallel(created, (task) =>
      call(url, `/api/tasks/${task._id}`, { method: 'DELETE', token: admin.token }),
    );
  }
  await inParallel(session.items, (item) =>
    call(url, `/api/tasks/${item.taskId}/todo/${item.itemId}`, {
      method: 'PATCH',
      token: member.token,
      body: JSON.stringify({ completed: item.completed }),
    }),
  );
}
