import { Trash2 } from 'lucide-react';
import { useId } from 'react';
import { addEntry, itemNumber, removeEntry } from '../task-form-rules';
import { ItemAdder } from './task-form-item-adder';

/** The TODO Checklist of the task form: numbered items (01, 02, …), each removable. */
export function ChecklistEditor({
  items,
  onChange,
}: {
  items: string[];
  onChange: (items: string[]) => void;
}) {
  const labelId = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend id={labelId} className="mb-2 text-sm font-medium text-slate-700">
        TODO Checklist
      </legend>
      {items.length > 0 && (
        <ol className="flex flex-col gap-2">
          {items.map((text, index) => (
            <li
              key={`${index}-${text}`}
              className="flex items-center gap-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm"
            >
              <span className="font-semibold text-slate-600">{itemNumber(index)}</span>
              <span className="min-w-0 flex-1 break-words text-slate-900">{text}</span>
              <button
                type="button"
                aria-label={`Remove item ${index + 1}`}
                onClick={() => onChange(removeEntry(items, index))}
                className="rounded p-1 text-red-700 hover:bg-red-50"
              >
                <Trash2 size={16} aria-hidden />
              </button>
            </li>
          ))}
        </ol>
      )}
      <ItemAdder
        labelledBy={labelId}
        placeholder="Enter Task"
        onAdd={(text) => onChange(addEntry(items, text))}
      />
    </fieldset>
  );
}
