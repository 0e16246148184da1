import { useT } from '../../../lib/i18n';
import { PRIORITY_KEYS, type PriorityRow } from './chart-data';

/** What recharts hands a custom tooltip: the hovered rows, if any. */
export interface PriorityTooltipProps {
  active?: boolean;
  payload?: ReadonlyArray<{ payload?: PriorityRow }>;
}

/** The priority bar's tooltip: its name in its colour and the count; spec section 8 text if empty. */
export function PriorityTooltip({ active, payload }: PriorityTooltipProps) {
  const t = useT();
  if (!active) return null;
  const row = payload?.[0]?.payload;
  return (
    <div className="rounded-md border border-slate-200 bg-white px-3 py-2 text-sm shadow-md">
      {row ? (
        <>
          <p className="font-semibold" style={{ color: row.fill }}>
            {t(PRIORITY_KEYS[row.priority])}
          </p>
          <p className="text-slate-700">
            {t('dashboard.count')} <span className="font-medium text-slate-900">{row.count}</span>
          </p>
        </>
      ) : (
        <p className="text-slate-700">{t('dashboard.noData')}</p>
      )}
    </div>
  );
}
