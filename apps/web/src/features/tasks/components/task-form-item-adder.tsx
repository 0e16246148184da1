import { Plus } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { inputClass } from '../../../components/ui/field';
import { useT } from '../../../lib/i18n';

/**
 * The input and Add button under the checklist and the attachments. Enter adds too (and does not
 * submit the whole form). The text goes out as typed: the list's own rule drops blanks.
 */
export function ItemAdder({
  labelledBy,
  placeholder,
  onAdd,
}: {
  /** The id of the section's visible legend, which names the input. */
  labelledBy: string;
  placeholder: string;
  onAdd: (text: string) => void;
}) {
  const t = useT();
  const [text, setText] = useState('');

  function add() {
    onAdd(text);
    setText('');
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  }

  return (
    <div className="flex gap-2">
      <input
        aria-labelledby={labelledBy}
        type="text"
        value={text}
        placeholder={placeholder}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        className={`${inputClass} min-w-0 flex-1`}
      />
      <Button variant="secondary" onClick={add} className="shrink-0">
        <Plus size={16} aria-hidden />
        {t('taskForm.add')}
      </Button>
    </div>
  );
}
