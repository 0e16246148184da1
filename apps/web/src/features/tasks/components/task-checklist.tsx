import type { TodoItem } from '@task-manager/shared';
import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { useT } from '../../../lib/i18n';
import { notify } from '../../../lib/notify';
import { useAddChecklistItem } from '../api/add-checklist-item';
import { useRenameChecklistItem } from '../api/rename-checklist-item';
import { ChecklistTextForm } from './checklist-text-form';

/**
 * A task's checklist on its page: one checkbox per item, named by its text. Where the API lets
 * the person (`canAdd`: admins and assignees; `canRename`: admins any item, an assignee the
 * items they added), items can be added at the end and renamed; a rename keeps the tick.
 */
export function TaskChecklist({
  taskId,
  items,
  onToggle,
  canAdd = false,
  canRename = () => false,
}: {
  taskId: string;
  items: readonly TodoItem[];
  onToggle: (item: TodoItem) => void;
  canAdd?: boolean;
  canRename?: (item: TodoItem) => boolean;
}) {
  const t = useT();
  const [renaming, setRenaming] = useState<string | null>(null);
  const addItem = useAddChecklistItem();
  const renameItem = useRenameChecklistItem();

  return (
    <div className="flex flex-col gap-2">
      {items.length === 0 ? (
        <p className="text-sm text-slate-600">{t('checklist.empty')}</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {items.map((item) => (
            <li key={item._id}>
              {renaming === item._id ? (
                <ChecklistTextForm
                  label={t('checklist.renameInput', { text: item.text })}
                  initialText={item.text}
                  submitLabel={t('checklist.save')}
                  failure={t('checklist.renameFailed')}
                  autoFocus
                  onCancel={() => setRenaming(null)}
                  onSubmit={async (text) => {
                    await renameItem.mutateAsync({ taskId, itemId: item._id, text });
                    setRenaming(null);
                    notify('success', t('checklist.renamed'));
                  }}
                />
              ) : (
                <div className="flex items-start gap-2">
                  <label className="flex min-w-0 flex-1 cursor-pointer items-start gap-3 rounded-md px-1 py-1.5 text-sm hover:bg-slate-50">
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
                  {canRename(item) && (
                    <button
                      type="button"
                      aria-label={t('checklist.rename', { text: item.text })}
                      onClick={() => setRenaming(item._id)}
                      className="shrink-0 rounded p-1.5 text-slate-600 hover:bg-slate-100"
                    >
                      <Pencil size={14} aria-hidden />
                    </button>
                  )}
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {canAdd && (
        <ChecklistTextForm
          label={t('checklist.addItem')}
          placeholder={t('checklist.addPlaceholder')}
          submitLabel={t('checklist.add')}
          failure={t('checklist.addFailed')}
          clearOnSuccess
          onSubmit={async (text) => {
            await addItem.mutateAsync({ taskId, text });
            notify('success', t('checklist.added'));
          }}
        />
      )}
    </div>
  );
}
