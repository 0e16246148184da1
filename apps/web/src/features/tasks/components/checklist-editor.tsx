import { Check, ChevronDown, ChevronUp, GripVertical, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { inputClass } from '../../../components/ui/field';
import { useT } from '../../../lib/i18n';
import {
  moveItem,
  newDraftItem,
  renameDraftItem,
  type ChecklistDraftItem,
} from '../checklist-draft';
import { itemNumber, removeEntry } from '../task-form-rules';
import { useRowDrag } from '../hooks/use-row-drag';
import { ItemAdder } from './task-form-item-adder';

type FocusTarget = 'handle' | 'up' | 'down';

/**
 * The TODO Checklist of the task form: numbered items (01, 02, …) whose text can be edited in
 * place (a stored item keeps its id, so its tick stays), reordered by dragging the handle, by
 * the arrow keys on the handle or by the up and down buttons (each move announced), and removed.
 * A ticked item says so, and by whom when the history tells (`tickedBy`: item id to name).
 */
export function ChecklistEditor({
  items,
  onChange,
  tickedBy,
}: {
  items: ChecklistDraftItem[];
  onChange: (items: ChecklistDraftItem[]) => void;
  tickedBy?: ReadonlyMap<string, string>;
}) {
  const t = useT();
  const labelId = useId();
  const hintId = useId();
  const [announcement, setAnnouncement] = useState('');
  const controls = useRef(new Map<string, HTMLElement>());
  const pendingFocus = useRef<string | null>(null);

  function announce(list: readonly ChecklistDraftItem[], key: string) {
    const position = list.findIndex((item) => item.key === key);
    const text = list[position]?.text ?? '';
    setAnnouncement(t('checklist.moved', { text, position: position + 1, count: list.length }));
  }

  const drag = useRowDrag({
    items,
    onMove: onChange,
    onDrop: (list, key) => announce(list, key),
  });

  function move(from: number, to: number, focus: FocusTarget) {
    const key = items[from]?.key;
    if (!key || to < 0 || to >= items.length) return;
    const next = moveItem(items, from, to);
    // A moved row is re-inserted, which drops focus: it goes back to the same control.
    const target =
      focus === 'up' && to === 0
        ? 'down'
        : focus === 'down' && to === items.length - 1
          ? 'up'
          : focus;
    pendingFocus.current = `${key}:${target}`;
    onChange(next);
    announce(next, key);
  }

  useEffect(() => {
    if (!pendingFocus.current) return;
    controls.current.get(pendingFocus.current)?.focus();
    pendingFocus.current = null;
  }, [items]);

  function onHandleKey(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    move(index, event.key === 'ArrowUp' ? index - 1 : index + 1, 'handle');
  }

  const ref = (name: string) => (element: HTMLElement | null) => {
    if (element) controls.current.set(name, element);
    else controls.current.delete(name);
  };

  return (
    <fieldset className="flex flex-col gap-2">
      <legend id={labelId} className="mb-2 text-sm font-medium text-slate-700">
        {t('checklist.heading')}
      </legend>
      {items.length > 1 && (
        <p id={hintId} className="text-xs text-slate-600">
          {t('checklist.moveHint')}
        </p>
      )}
      {items.length > 0 && (
        <ol className="flex flex-col gap-2">
          {items.map((item, index) => {
            const by = item._id ? tickedBy?.get(item._id) : undefined;
            const dragged = drag.draggingKey === item.key;
            return (
              <li
                key={item.key}
                ref={drag.rowRef(item.key)}
                className={`flex flex-wrap items-center gap-2 rounded-md border px-2 py-2 text-sm sm:flex-nowrap ${
                  dragged ? 'border-blue-600 bg-blue-50 shadow-md' : 'border-slate-200 bg-slate-50'
                }`}
              >
                <button
                  type="button"
                  ref={ref(`${item.key}:handle`)}
                  aria-label={t('checklist.moveHandle', { text: item.text })}
                  aria-describedby={items.length > 1 ? hintId : undefined}
                  onPointerDown={(event) => drag.start(event, item.key)}
                  onKeyDown={(event) => onHandleKey(event, index)}
                  className="cursor-grab touch-none rounded p-1 text-slate-600 hover:bg-slate-200 active:cursor-grabbing"
                >
                  <GripVertical size={16} aria-hidden />
                </button>
                <span className="font-semibold text-slate-600">{itemNumber(index)}</span>
                <input
                  type="text"
                  aria-label={t('checklist.itemText', { number: index + 1 })}
                  value={item.text}
                  onChange={(event) =>
                    onChange(renameDraftItem(items, item.key, event.target.value))
                  }
                  className={`${inputClass} min-w-0 flex-1 py-1`}
                />
                {item.completed && (
                  <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-900">
                    <Check size={12} aria-hidden />
                    {by ? t('checklist.doneBy', { name: by }) : t('checklist.done')}
                  </span>
                )}
                <span className="ml-auto flex shrink-0 items-center">
                  <button
                    type="button"
                    ref={ref(`${item.key}:up`)}
                    aria-label={t('checklist.moveUp', { text: item.text })}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1, 'up')}
                    className="rounded p-1 text-slate-700 hover:bg-slate-200 disabled:opacity-30"
                  >
                    <ChevronUp size={16} aria-hidden />
                  </button>
                  <button
                    type="button"
                    ref={ref(`${item.key}:down`)}
                    aria-label={t('checklist.moveDown', { text: item.text })}
                    disabled={index === items.length - 1}
                    onClick={() => move(index, index + 1, 'down')}
                    className="rounded p-1 text-slate-700 hover:bg-slate-200 disabled:opacity-30"
                  >
                    <ChevronDown size={16} aria-hidden />
                  </button>
                  <button
                    type="button"
                    aria-label={t('checklist.remove', { number: index + 1 })}
                    onClick={() => onChange(removeEntry(items, index))}
                    className="rounded p-1 text-red-700 hover:bg-red-50"
                  >
                    <Trash2 size={16} aria-hidden />
                  </button>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <ItemAdder
        labelledBy={labelId}
        placeholder={t('checklist.placeholder')}
        onAdd={(text) => {
          const trimmed = text.trim();
          if (trimmed) onChange([...items, newDraftItem(trimmed)]);
        }}
      />
    </fieldset>
  );
}
