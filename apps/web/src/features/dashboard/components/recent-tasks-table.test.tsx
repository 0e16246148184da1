import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Task } from '@task-manager/shared';
import { buildTask } from '../../../test/factories';
import { RecentTasksTable } from './recent-tasks-table';

function renderTable(tasks: Task[], taskPath?: (id: string) => string) {
  return render(
    <MemoryRouter initialEntries={['/admin/dashboard']}>
      <Routes>
        <Route
          path="/admin/dashboard"
          element={<RecentTasksTable tasks={tasks} seeAllPath="/admin/tasks" taskPath={taskPath} />}
        />
        <Route path="/admin/tasks" element={<h1>All tasks</h1>} />
        <Route path="/admin/tasks/:id" element={<h1>One task</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('RecentTasksTable', () => {
  it('lists name, status, priority and creation date', () => {
    renderTable([
      buildTask({
        title: 'Write the report',
        status: 'In Progress',
        priority: 'High',
        createdAt: '2025-01-01T10:00:00.000Z',
      }),
    ]);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Status', 'Priority', 'Created On']);
    const row = within(table).getAllByRole('row')[1]!;
    const cells = within(row).getAllByRole('cell');
    expect(cells.map((cell) => cell.textContent)).toEqual([
      'Write the report',
      'In Progress',
      'High Priority',
      '1st Jan 2025',
    ]);
  });

  it("writes 'N/A' when the creation date is missing", () => {
    renderTable([buildTask({ createdAt: '' })]);
    expect(screen.getByRole('cell', { name: 'N/A' })).toBeInTheDocument();
  });

  it("shows 'No tasks yet' instead of an empty table", () => {
    renderTable([]);
    expect(screen.getByText('No tasks yet')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('lets the table scroll sideways in a named, focusable region', () => {
    renderTable([buildTask()]);
    const region = screen.getByRole('region', { name: 'Recent Tasks table' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toHaveClass('overflow-x-auto');
  });

  it('opens a task from anywhere on its row, its name being the one link', async () => {
    renderTable(
      [buildTask({ _id: 't1', title: 'Write the report', priority: 'High' })],
      (id) => `/admin/tasks/${id}`,
    );
    const row = within(screen.getByRole('table')).getAllByRole('row')[1]!;
    expect(within(row).getAllByRole('link')).toHaveLength(1);
    expect(within(row).getByRole('link', { name: 'Write the report' })).toHaveAttribute(
      'href',
      '/admin/tasks/t1',
    );
    await userEvent.click(within(row).getByText('High Priority'));
    expect(screen.getByRole('heading', { name: 'One task' })).toBeInTheDocument();
  });

  it('goes to the full list with See All', async () => {
    renderTable([buildTask()]);
    await userEvent.click(screen.getByRole('button', { name: 'See All' }));
    expect(screen.getByRole('heading', { name: 'All tasks' })).toBeInTheDocument();
  });
});

describe('RecentTasksTable on a phone', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is a list of small cards instead of a table', () => {
    // The browser's answer to the phone query (jsdom has no screen); any other query: no match.
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query) =>
        ({
          matches: query.includes('max-width'),
          media: query,
          addEventListener: () => {},
          removeEventListener: () => {},
        }) as unknown as MediaQueryList,
    );
    renderTable([
      buildTask({
        title: 'Write the report',
        status: 'In Progress',
        priority: 'High',
        createdAt: '2025-01-01T10:00:00.000Z',
      }),
    ]);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const item = within(screen.getByRole('list', { name: 'Recent Tasks' })).getByRole('listitem');
    expect(item).toHaveTextContent('Write the report');
    expect(item).toHaveTextContent('In Progress');
    expect(item).toHaveTextContent('High Priority');
    expect(item).toHaveTextContent('1st Jan 2025');
  });
});
