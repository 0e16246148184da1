import { useState, type ReactNode } from 'react';
import { Button } from './button';
import { useT } from '../../lib/i18n';

/**
 * A button for an action that cannot be undone (a new secret that ends the old one): it asks
 * first, in place, with the action's consequence (`hint`), a danger button and Cancel.
 * `onConfirm` gets `done`, to call once the action succeeded (the question closes then).
 */
export function ConfirmAction({
  label,
  icon,
  confirmLabel,
  hint,
  pending,
  onConfirm,
}: {
  label: string;
  icon?: ReactNode;
  confirmLabel: string;
  hint?: string;
  pending: boolean;
  onConfirm: (done: () => void) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const t = useT();
  if (!confirming) {
    return (
      <div>
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          {icon}
          {label}
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      {hint && <p className="text-sm text-slate-700">{hint}</p>}
      <div className="flex flex-wrap gap-2">
        <Button
          variant="danger"
          disabled={pending}
          onClick={() => onConfirm(() => setConfirming(false))}
        >
          {confirmLabel}
        </Button>
        <Button variant="secondary" onClick={() => setConfirming(false)}>
          {t('common.cancel')}
        </Button>
      </div>
    </div>
  );
}
