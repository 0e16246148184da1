import type { DashboardResponse } from '@task-manager/shared';
import { Legend, Pie, PieChart, ResponsiveContainer, Tooltip } from 'recharts';
import { ChartCard } from './chart-card';
import { statusSlices, summarise } from './chart-data';

/** Tasks by status as a donut: Pending purple, In Progress cyan, Completed green. */
export function StatusDonutChart({
  distribution,
}: {
  distribution: DashboardResponse['charts']['taskDistribution'];
}) {
  const slices = statusSlices(distribution);
  const total = slices.reduce((sum, slice) => sum + slice.count, 0);
  const summary = `${summarise(slices.map((s) => ({ label: s.status, count: s.count })))} (${total} tasks)`;
  return (
    <ChartCard
      title="Task Status"
      summary={summary}
      emptyText={total === 0 ? 'Nothing to chart yet' : undefined}
    >
      <ResponsiveContainer width="100%" height={325}>
        {/* The figure's text summary stands in for the drawing, so no part of it takes focus. */}
        <PieChart accessibilityLayer={false}>
          <Pie
            data={slices}
            dataKey="count"
            nameKey="status"
            cx="50%"
            cy="50%"
            innerRadius="60%"
            outerRadius="80%"
            paddingAngle={1}
            stroke="#ffffff"
            rootTabIndex={-1}
            // Drawn whole at once: an entry animation (recharts waits 400 ms, then sweeps for
            // 1.5 s) only delays figures that someone opening their dashboard came to read.
            isAnimationActive={false}
          />
          <Tooltip />
          {/* Recharts sorts legend items by name; keep the slices' order instead. */}
          <Legend
            iconType="circle"
            itemSorter={(item) => slices.findIndex((slice) => slice.status === item.value)}
          />
        </PieChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
