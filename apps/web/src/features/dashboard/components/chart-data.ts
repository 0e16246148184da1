import type { DashboardResponse } from '@task-manager/shared';

/**
 * Spec section 9 colours, each at least 4.5:1 against white so the legend text (which recharts
 * draws in the series colour) stays readable: violet-600, cyan-700, green-700, orange-700, red-700.
 * Named as Tailwind's colour variables, so the dark theme (src/index.css) turns them into the
 * light shades that read as well on a dark card.
 */
export const STATUS_COLOURS = {
  Pending: 'var(--color-violet-600)',
  'In Progress': 'var(--color-cyan-700)',
  Completed: 'var(--color-green-700)',
} as const;

export const PRIORITY_COLOURS = {
  Low: 'var(--color-green-700)',
  Medium: 'var(--color-orange-700)',
  High: 'var(--color-red-700)',
} as const;

export type StatusName = keyof typeof STATUS_COLOURS;
export type PriorityName = keyof typeof PRIORITY_COLOURS;

/** Each status's and priority's name in the messages (locales/en.ts, `dashboard`). */
export const STATUS_KEYS = {
  Pending: 'dashboard.pending',
  'In Progress': 'dashboard.inProgress',
  Completed: 'dashboard.completed',
} as const satisfies Record<StatusName, string>;

export const PRIORITY_KEYS = {
  Low: 'dashboard.low',
  Medium: 'dashboard.medium',
  High: 'dashboard.high',
} as const satisfies Record<PriorityName, string>;

export interface StatusSlice {
  status: StatusName;
  count: number;
  fill: string;
}

export interface PriorityRow {
  priority: PriorityName;
  count: number;
  fill: string;
}

type Charts = DashboardResponse['charts'];

/** The donut's slices, in the order of the status badges. */
export function statusSlices(distribution: Charts['taskDistribution']): StatusSlice[] {
  return [
    { status: 'Pending', count: distribution.Pending, fill: STATUS_COLOURS.Pending },
    { status: 'In Progress', count: distribution.InProgress, fill: STATUS_COLOURS['In Progress'] },
    { status: 'Completed', count: distribution.Completed, fill: STATUS_COLOURS.Completed },
  ];
}

/** The priority bars, Low to High. */
export function priorityRows(levels: Charts['taskPriorityLevels']): PriorityRow[] {
  return [
    { priority: 'Low', count: levels.Low, fill: PRIORITY_COLOURS.Low },
    { priority: 'Medium', count: levels.Medium, fill: PRIORITY_COLOURS.Medium },
    { priority: 'High', count: levels.High, fill: PRIORITY_COLOURS.High },
  ];
}

/** The chart's numbers as one sentence, for people who cannot see the chart. */
export function summarise(rows: readonly { label: string; count: number }[]): string {
  return rows.map(({ label, count }) => `${label}: ${count}`).join(', ');
}
