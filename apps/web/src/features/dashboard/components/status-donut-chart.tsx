import type { DashboardResponse } from '@task-manager/shared';
import { Legend, Pie, PieChart, ResponsiveContainer, Tooltip } from 'recharts';
import { useT } from '../../../lib/i18n';
import { ChartCard } from './chart-card';
import { STATUS_KEYS, statusSlices, summarise } from './chart-data';

/** Tasks by status as a donut: Pending purple, In Progress cyan, Completed green. */
export function StatusDonutChart({
  distribution,
  onSelect,
}: {
  distribution: DashboardResponse['charts']['taskDistribution'];
  /** A click on a slice: open the list of that status (the cards do the same by keyboard). */
  onSelect?: (status: string) => void;
}) {
  const t = useT();
  // Each slice named in the current language: the legend and tooltip show `label`.
  const slices = statusSlices(distribution).map((slice) => ({
    ...slice,
    label: t(STATUS_KEYS[slice.status]),
  }));
  const total = slices.reduce((sum, slice) => sum + slice.count, 0);
  const summary = t('dashboard.statusSummary', {
    counts: summarise(slices.map((s) => ({ label: s.label, count: s.count }))),
    count: total,
  });
  return (
    <ChartCard
      title={t('dashboard.taskStatus')}
      summary={summary}
      emptyText={total === 0 ? t('dashboard.nothingToChart') : undefined}
    >
      <ResponsiveContainer width="100%" height={325}>
        {/* The figure's text summary stands in for the drawing, so no part of it takes focus. */}
        <PieChart accessibilityLayer={false}>
          <Pie
            data={slices}
            dataKey="count"
            nameKey="label"
            cx="50%"
            cy="50%"
            innerRadius="60%"
            outerRadius="80%"
            paddingAngle={1}
            stroke="var(--color-white)"
            rootTabIndex={-1}
            onClick={(sector: { payload?: { status?: string } }) => {
              const status = sector.payload?.status;
              if (status) onSelect?.(status);
            }}
            style={onSelect ? { cursor: 'pointer' } : undefined}
            // Drawn whole at once: an entry animation (recharts waits 400 ms, then sweeps for
            // 1.5 s) only delays figures that someone opening their dashboard came to read.
            isAnimationActive={false}
          />
          <Tooltip />
          {/* Recharts sorts legend items by name; keep the slices' order instead. */}
          <Legend
            iconType="circle"
            itemSorter={(item) => slices.findIndex((slice) => slice.label === item.value)}
          />
        </PieChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
