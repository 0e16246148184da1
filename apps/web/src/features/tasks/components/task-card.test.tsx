import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { buildPerson, buildTask, buildTodo, toTaskCard } from '../../../test/factories';
import { TaskCard } from './task-card';

function renderCard(task = buildTask(), target = { to: '/user/task-details/task-1' }) {
  render(
    <MemoryRouter>
      <TaskCard task={toTaskCard(task)} target={target} />
    </MemoryRouter>,
  );
  return screen.getByRole('link', { name: task.title });
}

describe('TaskCard', () => {
  it('is one link named by the title, leading to its target', () => {
    const card = renderCard(buildTask({ title: 'Plan the launch' }), {
      to: '/user/task-details/abc',
    });
    expect(card).toHaveAccessibleName('Plan the launch');
    expect(card).toHaveAttribute('href', '/user/task-details/abc');
    expect(screen.getAllByRole('link')).toHaveLength(1);
  });

  it('shows the status and priority badges, title and description', () => {
    const card = renderCard(
      buildTask({
        title: 'Plan the launch',
        description: 'Decide the date and the channels',
        status: 'Pending',
        priority: 'High',
      }),
    );
    expect(within(card).getByText('Pending')).toBeInTheDocument();
    expect(within(card).getByText('High Priority')).toBeInTheDocument();
    expect(within(card).getByRole('heading', { name: 'Plan the launch' })).toBeInTheDocument();
    expect(within(card).getByText('Decide the date and the channels')).toHaveClass('line-clamp-3');
  });

  it('counts the done checklist items and shows the progress', () => {
    const card = renderCard(
      buildTask({
        todoChecklist: [buildTodo('Draft', true), buildTodo('Review'), buildTodo('Publish')],
      }),
    );
    expect(card).toHaveTextContent('Task Done: 1 / 3');
    expect(within(card).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
  });

  it('shows the start (created) and due dates as Do MMM YYYY', () => {
    const card = renderCard(
      buildTask({ createdAt: '2025-01-01T10:00:00.000Z', dueDate: '2025-03-22T12:00:00.000Z' }),
    );
    const terms = within(card).getAllByRole('term');
    const values = within(card).getAllByRole('definition');
    expect(terms.map((term) => term.textContent)).toEqual(['Start Date', 'Due Date']);
    expect(values.map((value) => value.textContent)).toEqual(['1st Jan 2025', '22nd Mar 2025']);
  });

  it('shows three assignees and +2 for five', () => {
    const people = ['Ann Lee', 'Bob Ray', 'Cy Dee', 'Di Fox', 'Ed Gus'].map((name) =>
      buildPerson({ name }),
    );
    const card = renderCard(buildTask({ assignedTo: people }));
    expect(within(card).getAllByRole('img', { name: /^(Ann Lee|Bob Ray|Cy Dee)$/ })).toHaveLength(
      3,
    );
    expect(within(card).queryByRole('img', { name: 'Di Fox' })).not.toBeInTheDocument();
    expect(within(card).getByText('+2')).toBeInTheDocument();
  });

  it('shows no +N with three assignees or fewer', () => {
    const card = renderCard(buildTask({ assignedTo: [buildPerson(), buildPerson()] }));
    expect(within(card).queryByText(/^\+\d+$/)).not.toBeInTheDocument();
  });

  it('shows the attachment count with a spoken label', () => {
    const card = renderCard(buildTask({ attachments: ['https://a.example', 'b.example'] }));
    const count = within(card).getByRole('img', { name: '2 attachments' });
    expect(count).toHaveTextContent('2');
  });

  it('says "1 attachment" for one', () => {
    const card = renderCard(buildTask({ attachments: ['https://a.example'] }));
    expect(within(card).getByRole('img', { name: '1 attachment' })).toBeInTheDocument();
  });

  it('hides the attachment count when there are none', () => {
    const card = renderCard(buildTask({ attachments: [] }));
    expect(within(card).queryByRole('img', { name: /attachment/ })).not.toBeInTheDocument();
  });
});
