import { z } from 'zod';
import { taskSchema } from './task.js';

export const dashboardResponseSchema = z
  .object({
    statistics: z.object({
      totalTasks: z.number().int(),
      pendingTasks: z.number().int(),
      inProgressTasks: z.number().int(),
      completedTasks: z.number().int(),
      overdueTasks: z.number().int().meta({ description: 'Due before now and not Completed' }),
    }),
    charts: z.object({
      taskDistribution: z.object({
        All: z.number().int(),
        Pending: z.number().int(),
        InProgress: z.number().int(),
        Completed: z.number().int(),
      }),
      taskPriorityLevels: z.object({
        Low: z.number().int(),
        Medium: z.number().int(),
        High: z.number().int(),
      }),
    }),
    recentTasks: z.array(taskSchema).meta({ description: 'The 10 newest tasks' }),
  })
  .meta({
    id: 'Dashboard',
    description: 'Statistics, chart data and the newest tasks, over the tasks in scope.',
  });
export type DashboardResponse = z.infer<typeof dashboardResponseSchema>;
