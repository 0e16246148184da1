import type { TodoItem } from '@task-manager/shared';

/** The member's checklist: one checkbox per item, named by its text. */
export function TaskChecklist({
  items,
  onToggle,
}: {
  items: readonly TodoItem[];
  onToggle: (item: TodoItem) => void;
}) {
  if (items.length === 0) return <p className="text-sm text-slate-600">No checklist items.</p>;
  return (
    <ul className="flex flex-col gap-2">
      {items.map((item) => (
        <li key={item._id}>
          <label className="flex cursor-pointer items-start gap-3 rounded-md px-1 py-1.5 text-sm hover:bg-slate-50">
            <input
              type="checkbox"
              checked={item.completed}
              onChange={() => onToggle(item)}
              className="mt-0.5 h-4 w-4 shrink-0 accent-blue-700"
            />
            <span
              className={`min-w-0 break-words ${item.completed ? 'text-slate-600 line-through' : 'text-slate-900'}`}
            >
              {item.text}
            </span>
          </label>
        </li>
      ))}
    </ul>
  );
}
