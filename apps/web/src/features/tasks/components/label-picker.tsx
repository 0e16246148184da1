import type { Label } from '@task-manager/shared';
import { useT } from '../../../lib/i18n';

/** The labels a task carries, chosen among every label (each a toggle, named by the label). */
export function LabelPicker({
  labels,
  selected,
  onChange,
}: {
  labels: readonly Label[];
  selected: readonly string[];
  onChange: (ids: string[]) => void;
}) {
  const t = useT();
  if (labels.length === 0) return null;
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-slate-700">{t('ui.labels')}</legend>
      <div className="flex flex-wrap gap-1.5">
        {labels.map((label) => {
          const on = selected.includes(label._id);
          return (
            <label
              key={label._id}
              className={`inline-flex cursor-pointer items-center gap-1.5 rounded-full border px-3 py-1.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-700 ${
                on
                  ? 'border-blue-700 bg-blue-50 font-medium text-blue-800'
                  : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'
              }`}
            >
              <input
                type="checkbox"
                className="sr-only"
                checked={on}
                onChange={() =>
                  onChange(
                    on ? selected.filter((id) => id !== label._id) : [...selected, label._id],
                  )
                }
              />
              <span
                aria-hidden
                className="h-2.5 w-2.5 rounded-full"
                style={{ background: label.color }}
              />
              {label.name}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
