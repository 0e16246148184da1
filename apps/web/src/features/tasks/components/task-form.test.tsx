import { validationMessages as m } from '@task-manager/shared';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { emptyTaskForm } from '../task-form-rules';
import { buildPerson } from '../../../test/factories';
import { TaskForm } from './task-form';
import { onePageOfUsers } from './user-picker-fixtures';

const mia = buildPerson({ name: 'Mia Member' });

function renderForm() {
  const onSubmit = vi.fn();
  render(
    <TaskForm
      mode="create"
      draftKey="task:new"
      initialValues={emptyTaskForm}
      userChoices={onePageOfUsers([mia])}
      pending={false}
      onSubmit={onSubmit}
    />,
  );
  return onSubmit;
}

describe('the task form', { timeout: 30_000 }, () => {
  it('labels every field and starts with priority Low', () => {
    renderForm();
    expect(screen.getByLabelText('Task Title')).toHaveAttribute('placeholder', 'Create App UI');
    expect(screen.getByLabelText('Description')).toHaveAttribute('placeholder', 'Describe task');
    expect(screen.getByLabelText('Priority')).toHaveValue('Low');
    expect(screen.getByLabelText('Due Date')).toHaveAttribute('type', 'date');
    expect(screen.getByRole('group', { name: 'Assigned To' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'CREATE TASK' })).toBeInTheDocument();
  });

  it('shows each rule in turn as the fields are filled, and sends nothing until all pass', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = renderForm();
    const submit = () => user.click(screen.getByRole('button', { name: 'CREATE TASK' }));
    const error = () => screen.getByRole('alert');

    await submit();
    expect(error()).toHaveTextContent(m.titleRequired);
    await user.type(screen.getByLabelText('Task Title'), '   ');
    await submit();
    expect(error()).toHaveTextContent(m.titleRequired);
    await user.type(screen.getByLabelText('Task Title'), 'Plan the release');
    await submit();
    expect(error()).toHaveTextContent(m.descriptionRequired);
    await user.type(screen.getByLabelText('Description'), 'Dates and owners');
    await submit();
    expect(error()).toHaveTextContent(m.dueDateRequired);
    await user.selectOptions(screen.getByLabelText('Priority'), 'High');
    await user.type(screen.getByLabelText('Due Date'), '2031-05-20');
    await submit();
    expect(error()).toHaveTextContent(m.notAssigned);

    await user.click(screen.getByRole('button', { name: 'Add Members' }));
    const dialog = screen.getByRole('dialog', { name: 'Select Users' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Mia Member' }));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await submit();
    expect(error()).toHaveTextContent(m.todoRequired);
    expect(onSubmit).not.toHaveBeenCalled();

    await user.type(screen.getByRole('textbox', { name: 'TODO Checklist' }), 'Draft{Enter}');
    await user.type(screen.getByRole('textbox', { name: 'Add Attachments' }), 'example.com{Enter}');
    await submit();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      title: '   Plan the release',
      description: 'Dates and owners',
      priority: 'High',
      dueDate: '2031-05-20T00:00:00.000Z',
      assignedTo: [mia._id],
      todoChecklist: [{ text: 'Draft', completed: false }],
      attachments: ['example.com'],
      labels: [],
    });
  });

  it('sends stored items by id (renamed or moved, their ticks stay) and new items open', async () => {
    const user = userEvent.setup({ delay: null });
    const onSubmit = vi.fn();
    render(
      <TaskForm
        mode="update"
        draftKey="task:t1"
        initialValues={{
          ...emptyTaskForm,
          title: 'Plan',
          description: 'The plan',
          dueDate: '2031-05-20',
          assignees: [mia],
          checklist: [
            { key: 'a', _id: 'a', text: 'Done already', completed: true },
            { key: 'b', _id: 'b', text: 'Open still', completed: false },
          ],
        }}
        userChoices={onePageOfUsers([mia])}
        pending={false}
        onSubmit={onSubmit}
      />,
    );
    const first = screen.getByRole('textbox', { name: 'Checklist item 1' });
    await user.clear(first);
    await user.type(first, 'Done, renamed');
    await user.click(screen.getByRole('button', { name: 'Move “Open still” up' }));
    await user.type(screen.getByRole('textbox', { name: 'TODO Checklist' }), 'New step{Enter}');
    await user.click(screen.getByRole('button', { name: 'UPDATE TASK' }));
    expect(onSubmit.mock.calls[0]![0].todoChecklist).toEqual([
      { _id: 'b', text: 'Open still' },
      { _id: 'a', text: 'Done, renamed' },
      { text: 'New step', completed: false },
    ]);
  });
});
