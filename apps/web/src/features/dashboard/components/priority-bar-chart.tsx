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
import { useT } from '../../../lib/i18n';
import { ChartCard } from './chart-card';
import { PRIORITY_KEYS, priorityRows, summarise, type PriorityRow } from './chart-data';
import { PriorityTooltip } from './priority-tooltip';

/** Each bar in its priority's colour (recharts' replacement for the deprecated Cell). */
function PriorityBar(props: BarShapeProps) {
  return <Rectangle {...props} fill={(props.payload as PriorityRow | undefined)?.fill} />;
}

/** Tasks by priority as bars, titled 'Task Distribution': Low green, Medium orange, High red. */
export function PriorityBarChart({
  levels,
  onSelect,
}: {
  levels: DashboardResponse['charts']['taskPriorityLevels'];
  /** A click on a bar: open the list of that priority. */
  onSelect?: (priority: string) => void;
}) {
  const t = useT();
  const rows = priorityRows(levels);
  const name = (priority: PriorityRow['priority']) => t(PRIORITY_KEYS[priority]);
  const summary = t('dashboard.prioritySummary', {
    counts: summarise(rows.map((r) => ({ label: name(r.priority), count: r.count }))),
  });
  return (
    <ChartCard title={t('dashboard.taskDistribution')} summary={summary}>
      <ResponsiveContainer width="100%" height={325}>
        <BarChart data={rows} accessibilityLayer={false} margin={{ top: 8, right: 8, left: -16 }}>
          <CartesianGrid stroke="none" />
          <XAxis
            dataKey="priority"
            tickFormatter={(priority: PriorityRow['priority']) => name(priority)}
            tick={{ fontSize: 12, fill: 'var(--color-slate-700)' }}
            stroke="var(--color-slate-400)"
          />
          <YAxis
            allowDecimals={false}
            tick={{ fontSize: 12, fill: 'var(--color-slate-700)' }}
            stroke="var(--color-slate-400)"
          />
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
            onClick={(bar: { payload?: { priority?: string } }) => {
              const priority = bar.payload?.priority;
              if (priority) onSelect?.(priority);
            }}
            style={onSelect ? { cursor: 'pointer' } : undefined}
          />
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

type PriorityTooltipPayload = ReadonlyArray<{ payload?: PriorityRow }>;
