import type { DashboardResponse, Task } from '@task-manager/shared';

let sequence = 0;

/** A task as the API answers it; override only what a test is about. */
export function buildTask(overrides: Partial<Task> = {}): Task {
  sequence += 1;
  return {
    _id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    title: `Task ${sequence}`,
    description: 'Something to do',
    priority: 'Low',
    status: 'Pending',
    progress: 0,
    dueDate: '2025-02-01T00:00:00.000Z',
    createdBy: null,
    assignedTo: [],
    todoChecklist: [],
    attachments: [],
    completedTodoCount: 0,
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    ...overrides,
  };
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
