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
import { useLabels } from '../../../lib/get-labels';
import { firstIssue } from '../../../lib/validation';
import { useCreateLabel, useDeleteLabel, useUpdateLabel } from '../api/manage-labels';

const DEFAULT_COLOR = '#2563eb';

/** /admin/labels — the labels tasks can carry: add, rename, recolour, delete. */
export function LabelsPage() {
  const labels = useLabels();
  let content;
  if (labels.data) {
    content =
      labels.data.length === 0 ? (
        <EmptyState title="No labels yet">Add one above: tasks can then carry it.</EmptyState>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {labels.data.map((label) => (
            <LabelRow key={`${label._id}-${label.name}-${label.color}`} label={label} />
          ))}
        </ul>
      );
  } else if (labels.isError) {
    content = (
      <ErrorState message="The labels could not be loaded." onRetry={() => void labels.refetch()} />
    );
  } else {
    content = <Spinner label="Loading labels..." />;
  }
  return (
    <section aria-labelledby="labels-heading" className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 id="labels-heading" className="text-xl font-semibold text-slate-900">
        Labels
      </h1>
      <NewLabelForm />
      {content}
    </section>
  );
}

function NewLabelForm() {
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
        toast.success('Label added');
        setName('');
      },
      onError: (failure) => setError(errorMessage(failure, 'Failed to add the label.')),
    });
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="New label"
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-[12rem] flex-1 flex-col gap-1">
          <label htmlFor={nameId} className="text-sm font-medium text-slate-700">
            Label name
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
            Colour
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
          Add label
        </Button>
      </div>
      <FormError message={error} />
    </form>
  );
}

function LabelRow({ label }: { label: Label }) {
  const updateLabel = useUpdateLabel();
  const deleteLabel = useDeleteLabel();
  const [name, setName] = useState(label.name);
  const [color, setColor] = useState(label.color);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
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
        onSuccess: () => toast.success('Label saved'),
        onError: (failure) => setError(errorMessage(failure, 'Failed to save the label.')),
      },
    );
  }

  function remove() {
    deleteLabel.mutate(label._id, {
      onSuccess: () => {
        setConfirming(false);
        toast.success('Label deleted');
      },
      onError: (failure) => toast.error(errorMessage(failure, 'Failed to delete the label.')),
    });
  }

  return (
    <li className="p-3">
      <form onSubmit={save} noValidate className="flex flex-wrap items-end gap-2">
        <div className="flex min-w-[10rem] flex-1 flex-col gap-1">
          <label htmlFor={nameId} className="sr-only">
            Name of {label.name}
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
          Colour of {label.name}
        </label>
        <input
          id={colorId}
          type="color"
          value={color}
          onChange={(event) => setColor(event.target.value)}
          className="h-10 w-14 rounded-md border border-slate-300 bg-white"
        />
        <Button type="submit" variant="secondary" disabled={!changed || updateLabel.isPending}>
          Save
        </Button>
        <Button
          variant="ghost"
          aria-label={`Delete ${label.name}`}
          onClick={() => setConfirming(true)}
        >
          <Trash2 size={16} aria-hidden />
        </Button>
      </form>
      <FormError message={error} />
      <Modal
        open={confirming}
        title="Delete Label"
        onClose={() => setConfirming(false)}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={remove} disabled={deleteLabel.isPending}>
              Delete
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-800">
          Delete the label “{label.name}”? It is also removed from every task that has it.
        </p>
      </Modal>
    </li>
  );
}
