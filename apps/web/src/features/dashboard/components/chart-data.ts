import type { DashboardResponse } from '@task-manager/shared';

/**
 * Spec section 9 colours, each at least 4.5:1 against white so the legend text (which recharts
 * draws in the series colour) stays readable: violet-600, cyan-700, green-700, orange-700, red-700.
 */
export const STATUS_COLOURS = {
  Pending: '#7c3aed',
  'In Progress': '#0e7490',
  Completed: '#15803d',
} as const;

export const PRIORITY_COLOURS = {
  Low: '#15803d',
  Medium: '#c2410c',
  High: '#b91c1c',
} as const;

export type StatusName = keyof typeof STATUS_COLOURS;
export type PriorityName = keyof typeof PRIORITY_COLOURS;

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
