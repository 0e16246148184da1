import { Paperclip, Trash2 } from 'lucide-react';
import { useId } from 'react';
import { useT } from '../../../lib/i18n';
import { addEntry, removeEntry } from '../task-form-rules';
import { ItemAdder } from './task-form-item-adder';

/** Add Attachments of the task form: links, each removable. */
export function AttachmentsEditor({
  links,
  onChange,
}: {
  links: string[];
  onChange: (links: string[]) => void;
}) {
  const t = useT();
  const labelId = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend id={labelId} className="mb-2 text-sm font-medium text-slate-700">
        {t('tasks.addAttachments')}
      </legend>
      {links.length > 0 && (
        <ul className="flex flex-col gap-2">
          {links.map((link, index) => (
            <li
              key={`${index}-${link}`}
              className="flex items-center gap-3 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm"
            >
              <Paperclip size={16} aria-hidden className="shrink-0 text-slate-500" />
              <span className="min-w-0 flex-1 break-all text-slate-900">{link}</span>
              <button
                type="button"
                aria-label={t('tasks.removeAttachment', { number: index + 1 })}
                onClick={() => onChange(removeEntry(links, index))}
                className="rounded p-1 text-red-700 hover:bg-red-50"
              >
                <Trash2 size={16} aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      <ItemAdder
        labelledBy={labelId}
        placeholder={t('tasks.addFileLink')}
        onAdd={(link) => onChange(addEntry(links, link))}
      />
    </fieldset>
  );
}
