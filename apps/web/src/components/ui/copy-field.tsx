import { Copy } from 'lucide-react';
import { useId } from 'react';
import { i18next, useT } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { Button } from './button';
import { inputClass } from './field';

/** Copies `text` and says so in a toast, or says to copy it by hand when the browser refuses. */
export function copyToClipboard(
  text: string,
  copied = i18next.t('common.copied'),
  failed = i18next.t('common.copyFailed'),
) {
  // navigator.clipboard is missing outside secure contexts (plain http on a LAN address).
  const writing = navigator.clipboard?.writeText(text) ?? Promise.reject(new Error('no clipboard'));
  writing.then(
    () => notify('success', copied),
    () => notify('error', failed),
  );
}

/**
 * A read-only text to hand over (a link, an address) with a Copy button; focusing the field
 * selects it all, for copying by hand.
 */
export function CopyField({
  label,
  value,
  copiedText,
  failedText,
}: {
  label: string;
  value: string;
  /** The toast after copying; 'Copied' unless given. */
  copiedText?: string;
  failedText?: string;
}) {
  const fieldId = useId();
  const t = useT();
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={fieldId} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          id={fieldId}
          readOnly
          value={value}
          onFocus={(event) => event.target.select()}
          className={inputClass}
        />
        <Button
          variant="secondary"
          onClick={() =>
            copyToClipboard(
              value,
              copiedText ?? t('common.copied'),
              failedText ?? t('common.copyFailed'),
            )
          }
        >
          <Copy size={16} aria-hidden />
          {t('common.copy')}
        </Button>
      </div>
    </div>
  );
}
