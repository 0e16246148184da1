import type { PriorityRow } from './chart-data';

/** What recharts hands a custom tooltip: the hovered rows, if any. */
export interface PriorityTooltipProps {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: PriorityRow }>;
}

/** The priority bar's tooltip: its name in its colour and the count; spec section 8 text if empty. */
export function PriorityTooltip({ active, payload }: PriorityTooltipProps) {
  if (!active) return null;
  const row = payload?.[0]?.payload;
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow-md">
      {row ? (
        <>
          <p className="font-semibold" style={{ color: row.fill }}>
            {row.priority}
          </p>
          <p className="text-slate-700">
            Count: <span className="font-medium text-slate-900">{row.count}</span>
          </p>
        </>
      ) : (
        <p className="text-slate-700">No data available</p>
      )}
    </div>
  );
}
