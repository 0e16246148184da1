import { useT } from '../../lib/i18n';

/** A task's labels as small chips: a dot of the label's colour and its name (readable on white). */
export function LabelChips({
  labels,
  className = '',
}: {
  labels: readonly { _id: string; name: string; color: string }[] | undefined;
  className?: string;
}) {
  const t = useT();
  if (!labels || labels.length === 0) return null;
  return (
    <ul aria-label={t('ui.labels')} className={`flex flex-wrap gap-1.5 ${className}`}>
      {labels.map((label) => (
        <li
          key={label._id}
          className="inline-flex max-w-[12rem] items-center gap-1.5 rounded-full border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-800"
        >
          <span
            aria-hidden
            className="h-2.5 w-2.5 shrink-0 rounded-full"
            style={{ background: label.color }}
          />
          <span className="truncate">{label.name}</span>
        </li>
      ))}
    </ul>
  );
}
