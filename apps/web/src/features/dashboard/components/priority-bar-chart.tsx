import type { DashboardResponse } from '@task-manager/shared';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Rectangle,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type BarShapeProps,
} from 'recharts';
import { ChartCard } from './chart-card';
import { priorityRows, summarise, type PriorityRow } from './chart-data';
import { PriorityTooltip } from './priority-tooltip';

/** Each bar in its priority's colour (recharts' replacement for the deprecated Cell). */
function PriorityBar(props: BarShapeProps) {
  return <Rectangle {...props} fill={(props.payload as PriorityRow | undefined)?.fill} />;
}

/** Tasks by priority as bars, titled 'Task Distribution': Low green, Medium orange, High red. */
export function PriorityBarChart({
  levels,
}: {
  levels: DashboardResponse['charts']['taskPriorityLevels'];
}) {
  const rows = priorityRows(levels);
  const summary = `Tasks by priority: ${summarise(rows.map((r) => ({ label: r.priority, count: r.count })))}`;
  return (
    <ChartCard title="Task Distribution" summary={summary}>
      <ResponsiveContainer width="100%" height={325}>
        <BarChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: 8, left: -16 }}>
          <CartesianGrid stroke="none" />
          <XAxis dataKey="priority" tick={{ fontSize: 12, fill: '#334155' }} stroke="#94a3b8" />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: '#334155' }} stroke="#94a3b8" />
          <Tooltip
            cursor={{ fill: 'transparent' }}
            content={({ active, payload }) => (
              <PriorityTooltip
                active={active}
                payload={payload as PriorityTooltipPayload | undefined}
              />
            )}
          />
          {/* Drawn whole at once, as the donut: no entry animation. */}
          <Bar
            dataKey="count"
            radius={[10, 10, 0, 0]}
            shape={PriorityBar}
            isAnimationActive={false}
          />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

type PriorityTooltipPayload = ReadonlyArray<{ payload?: PriorityRow }>;
