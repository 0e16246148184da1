import {
  cardDescription,
  checklistState,
  type Assignee,
  type DashboardResponse,
  type Task,
  type TaskCard,
  type TaskCardListResponse,
  type TaskListResponse,
  type TodoItem,
  type User,
  type UserWithTaskCounts,
} from '@task-manager/shared';

/**
 * Every test's API data, built as the API answers it: override only what a test is about. Ids
 * are UUIDs (the shared schemas want them), different on every call.
 */

let sequence = 0;

export function uuid(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
}

/** Someone a task is assigned to. */
export function buildPerson(overrides: Partial<Assignee> = {}): Assignee {
  const _id = overrides._id ?? uuid();
  return {
    _id,
    name: `Person ${_id.slice(-4)}`,
    email: `person${_id.slice(-4)}@example.com`,
    profileImageUrl: null,
    ...overrides,
  };
}

/** A signed-in account, a member unless told otherwise. */
export function buildUser(overrides: Partial<User> = {}): User {
  return {
    ...buildPerson(),
    role: 'member',
    active: true,
    createdAt: '2031-01-01T00:00:00.000Z',
    updatedAt: '2031-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A member as GET /api/users lists them, with their task counts. */
export function buildTeamMember(overrides: Partial<UserWithTaskCounts> = {}): UserWithTaskCounts {
  return {
    ...buildUser(),
    pendingTasks: 0,
    inProgressTasks: 0,
    completedTasks: 0,
    ...overrides,
  };
}

export function buildTodo(text: string, completed = false): TodoItem {
  return { _id: uuid(), text, completed };
}

/**
 * A task half done: progress, status and the done count follow its checklist by the shared
 * rule (so a test that gives a checklist gets the rest right), unless a test sets them.
 */
export function buildTask(overrides: Partial<Task> = {}): Task {
  const todoChecklist = overrides.todoChecklist ?? [
    buildTodo('Write the draft', true),
    buildTodo('Review the draft'),
  ];
  return {
    _id: uuid(),
    title: 'Prepare the launch',
    description: 'Everything the launch needs.',
    priority: 'High',
    ...checklistState(todoChecklist),
    dueDate: '2031-06-15T00:00:00.000Z',
    createdBy: null,
    assignedTo: [buildPerson({ name: 'Mia Member' })],
    todoChecklist,
    attachments: [],
    labels: [],
    files: [],
    createdAt: '2031-01-01T10:00:00.000Z',
    updatedAt: '2031-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** A list answer (the last page) whose summary counts the given tasks, unless one is given. */
export function buildTaskList(
  tasks: Task[],
  statusSummary?: TaskListResponse['statusSummary'],
): TaskListResponse {
  return {
    tasks,
    nextCursor: null,
    statusSummary: statusSummary ?? {
      all: tasks.length,
      pendingTasks: tasks.filter((task) => task.status === 'Pending').length,
      inProgressTasks: tasks.filter((task) => task.status === 'In Progress').length,
      completedTasks: tasks.filter((task) => task.status === 'Completed').length,
    },
  };
}

/** A task as the list's card view (`view=card`) answers it: counts instead of lists. */
export function toTaskCard(task: Task): TaskCard {
  const { todoChecklist, attachments, files, description, ...rest } = task;
  return {
    ...rest,
    description: cardDescription(description),
    todoDone: todoChecklist.filter((item) => item.completed).length,
    todoTotal: todoChecklist.length,
    attachmentCount: attachments.length,
    fileCount: files.length,
  };
}

/** A list answer of the card view (the last page), its summary counting the given tasks. */
export function buildTaskCardList(
  tasks: Task[],
  statusSummary?: TaskListResponse['statusSummary'],
): TaskCardListResponse {
  const list = buildTaskList(tasks, statusSummary);
  return { ...list, tasks: list.tasks.map(toTaskCard) };
}

type PageParams = Record<string, unknown> | undefined;

/**
 * The server's answer to one GET /api/tasks?view=card: the tasks of `params.status` (all when absent),
 * `params.limit` of them from the offset in `params.cursor`, the counts of every task, and the
 * next offset as `nextCursor` (null on the last page). `tasks` are newest first already.
 */
export function taskPageFor(tasks: Task[], params: PageParams): TaskCardListResponse {
  const matching = tasks.filter((task) => !params?.status || task.status === params.status);
  const start = Number(params?.cursor ?? 0);
  const end = start + Number(params?.limit ?? 100);
  return {
    ...buildTaskCardList(tasks),
    tasks: matching.slice(start, end).map(toTaskCard),
    nextCursor: end < matching.length ? String(end) : null,
  };
}

/**
 * The server's answer to one GET /api/users: the members whose name or e-mail contains
 * `params.q`, `params.limit` of them from the offset in `params.cursor`; the next offset
 * comes in the X-Next-Cursor header while there are more.
 */
export function userPageFor(team: UserWithTaskCounts[], params: PageParams) {
  const search = String(params?.q ?? '').toLowerCase();
  const matching = team.filter((person) =>
    `${person.name} ${person.email}`.toLowerCase().includes(search),
  );
  const start = Number(params?.cursor ?? 0);
  const end = start + Number(params?.limit);
  const headers: Record<string, string> =
    end < matching.length ? { 'X-Next-Cursor': `${end}` } : {};
  return { status: 200, data: matching.slice(start, end), headers };
}

/** A dashboard answer whose counts agree with each other. */
export function buildDashboard(
  counts: { pending?: number; inProgress?: number; completed?: number } = {},
  recentTasks: Task[] = [],
): DashboardResponse {
  const { pending = 0, inProgress = 0, completed = 0 } = counts;
  const total = pending + inProgress + completed;
  return {
    statistics: {
      totalTasks: total,
      pendingTasks: pending,
      inProgressTasks: inProgress,
      completedTasks: completed,
      overdueTasks: 0,
    },
    charts: {
      taskDistribution: {
        All: total,
        Pending: pending,
        InProgress: inProgress,
        Completed: completed,
      },
      taskPriorityLevels: { Low: total, Medium: 0, High: 0 },
    },
    recentTasks,
  };
}
