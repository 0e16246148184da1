/**
 * Every dashboard query key, from one factory. The keys sit under ['tasks'] on purpose: the
 * dashboards count tasks, so a task mutation that invalidates every ['tasks', ...] query
 * refreshes them too, without the tasks feature knowing this one exists.
 */
export const dashboardKeys = {
  all: ['tasks', 'dashboard'] as const,
  admin: () => [...dashboardKeys.all, 'admin'] as const,
  user: () => [...dashboardKeys.all, 'user'] as const,
};
