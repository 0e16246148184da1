import type { Label } from '@task-manager/shared';
import { createLabelSchema, updateLabelSchema } from '@task-manager/shared';
import { Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Button } from '../../../components/ui/button';
import { EmptyState, ErrorState, Spinner } from '../../../components/ui/feedback';
import { FormError, inputClass } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import { errorMessage } from '../../../lib/api-client';
import { useT } from '../../../lib/i18n';
import { useLabels } from '../../../lib/get-labels';
import { firstIssue } from '../../../lib/validation';
import {
  useCreateLabel,
  useDeleteLabel,
  useTasksWithLabel,
  useUpdateLabel,
} from '../api/manage-labels';
import { notify } from '../../../lib/notify';

const DEFAULT_COLOR = '#2563eb';

/** /admin/labels — the labels tasks can carry: add, rename, recolour, delete. */
export function LabelsPage() {
  const t = useT();
  const labels = useLabels();
  let content;
  if (labels.data) {
    content =
      labels.data.length === 0 ? (
        <EmptyState title={t('labels.none')}>{t('labels.noneHint')}</EmptyState>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {labels.data.map((label) => (
            <LabelRow key={label._id} label={label} />
          ))}
        </ul>
      );
  } else if (labels.isError) {
    content = <ErrorState message={t('labels.loadFailed')} onRetry={() => void labels.refetch()} />;
  } else {
    content = <Spinner label={t('labels.loading')} />;
  }
  return (
    <section aria-labelledby="labels-heading" className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 id="labels-heading" className="text-xl font-semibold text-slate-900">
        {t('labels.heading')}
      </h1>
      <NewLabelForm />
      {content}
    </section>
  );
}

function NewLabelForm() {
  const t = useT();
  const createLabel = useCreateLabel();
  const [name, setName] = useState('');
  const [color, setColor] = useState(DEFAULT_COLOR);
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const colorId = useId();

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = { name, color };
    const problem = firstIssue(createLabelSchema, input);
    setError(problem);
    if (problem) return;
    createLabel.mutate(input, {
      onSuccess: () => {
        toast.success(t('labels.added'));
        setName('');
      },
      onError: (failure) => setError(errorMessage(failure, t('labels.addFailed'))),
    });
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={t('labels.newLabel')}
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-[12rem] flex-1 flex-col gap-1">
          <label htmlFor={nameId} className="text-sm font-medium text-slate-700">
            {t('labels.name')}
          </label>
          <input
            id={nameId}
            value={name}
            maxLength={50}
            onChange={(event) => setName(event.target.value)}
            className={inputClass}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={colorId} className="text-sm font-medium text-slate-700">
            {t('labels.colour')}
          </label>
          <input
            id={colorId}
            type="color"
            value={color}
            onChange={(event) => setColor(event.target.value)}
            className="h-10 w-16 rounded-md border border-slate-300 bg-white"
          />
        </div>
        <Button type="submit" disabled={createLabel.isPending}>
          {t('labels.add')}
        </Button>
      </div>
      <FormError message={error} />
    </form>
  );
}

function LabelRow({ label }: { label: Label }) {
  const t = useT();
  const updateLabel = useUpdateLabel();
  const deleteLabel = useDeleteLabel();
  const [name, setName] = useState(label.name);
  const [color, setColor] = useState(label.color);
  // The row stays mounted through a save (focus stays where it was); a change made elsewhere
  // (another admin, another tab) shows in a field not being edited, and never replaces typing.
  const [stored, setStored] = useState({ name: label.name, color: label.color });
  if (stored.name !== label.name || stored.color !== label.color) {
    setStored({ name: label.name, color: label.color });
    if (name === stored.name) setName(label.name);
    if (color === stored.color) setColor(label.color);
  }
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const carriers = useTasksWithLabel(label._id, confirming);
  const nameId = useId();
  const colorId = useId();
  const changed = name !== label.name || color !== label.color;

  function save(event: FormEvent) {
    event.preventDefault();
    const input = {
      ...(name !== label.name ? { name } : {}),
      ...(color !== label.color ? { color } : {}),
    };
    const problem = firstIssue(updateLabelSchema, input);
    setError(problem);
    if (problem) return;
    updateLabel.mutate(
      { id: label._id, input },
      {
        onSuccess: () => toast.success(t('labels.saved')),
        onError: (failure) => setError(errorMessage(failure, t('labels.saveFailed'))),
      },
    );
  }

  function remove() {
    deleteLabel.mutate(label._id, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(t('labels.deleted'));
      },
      onError: (failure) => notify('error', errorMessage(failure, t('labels.deleteFailed'))),
    });
  }

  return (
    <li className="p-3">
      <form onSubmit={save} noValidate className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-[10rem] flex-1 flex-col gap-1">
          <label htmlFor={nameId} className="sr-only">
            {t('labels.nameOf', { name: label.name })}
          </label>
          <input
            id={nameId}
            value={name}
            maxLength={50}
            onChange={(event) => setName(event.target.value)}
            className={inputClass}
          />
        </div>
        <label htmlFor={colorId} className="sr-only">
          {t('labels.colourOf', { name: label.name })}
        </label>
        <input
          id={colorId}
          type="color"
          value={color}
          onChange={(event) => setColor(event.target.value)}
          className="h-10 w-14 rounded-md border border-slate-300 bg-white"
        />
        <Button type="submit" variant="secondary" disabled={!changed || updateLabel.isPending}>
          {t('common.save')}
        </Button>
        <Button
          variant="ghost"
          aria-label={t('labels.deleteOf', { name: label.name })}
          onClick={() => setConfirming(true)}
        >
          <Trash2 size={16} aria-hidden />
        </Button>
      </form>
      <FormError message={error} />
      <Modal
        open={confirming}
        title={t('labels.deleteTitle')}
        onClose={() => setConfirming(false)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </Button>
            <Button variant="danger" onClick={remove} disabled={deleteLabel.isPending}>
              {t('labels.delete')}
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-800">{t('labels.deleteText', { name: label.name })}</p>
        <p className="mt-2 text-sm text-slate-700" aria-live="polite">
          {carriers.data !== undefined
            ? t('labels.carriedBy', { count: carriers.data })
            : carriers.isError
              ? t('labels.carriedByUnknown')
              : t('labels.countingTasks')}
        </p>
      </Modal>
    </li>
  );
}
