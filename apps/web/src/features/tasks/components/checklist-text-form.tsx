import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { FormError, inputClass } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';

/**
 * One line of text sent to the server: a new checklist item, or an item's new text. What was
 * typed stays in the box until the server has it, so nothing is lost on an error (shown under
 * the box, with the server's reason when it gives one).
 */
export function ChecklistTextForm({
  label,
  initialText = '',
  placeholder,
  submitLabel,
  failure,
  clearOnSuccess = false,
  autoFocus = false,
  onSubmit,
  onCancel,
}: {
  /** The input's accessible name. */
  label: string;
  initialText?: string;
  placeholder?: string;
  submitLabel: string;
  /** What is said when the server refuses without a reason of its own. */
  failure: string;
  clearOnSuccess?: boolean;
  autoFocus?: boolean;
  onSubmit: (text: string) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const t = useT();
  const [text, setText] = useState(initialText);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) {
      setError(t('checklist.textRequired'));
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onSubmit(trimmed);
      if (clearOnSuccess) setText('');
    } catch (failed) {
      setError(errorMessage(failed, failure));
    } finally {
      setPending(false);
    }
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      onCancel();
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="flex flex-col gap-1">
      <div className="flex flex-wrap gap-2">
        <input
          type="text"
          aria-label={label}
          aria-invalid={error ? true : undefined}
          value={text}
          placeholder={placeholder}
          // The box opens because the person asked to rename: the caret goes there.
          autoFocus={autoFocus}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          className={`${inputClass} min-w-0 flex-1 py-1.5`}
        />
        <Button type="submit" variant="secondary" disabled={pending} aria-busy={pending}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            {t('checklist.cancel')}
          </Button>
        )}
      </div>
      <FormError message={error} />
    </form>
  );
}
