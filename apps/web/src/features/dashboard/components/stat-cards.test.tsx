import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { buildDashboard } from '../../../test/factories';
import { StatCards } from './stat-cards';

/** The value (<dd>) that belongs to a label (<dt>). */
function valueOf(label: string): string | null {
  const term = screen.getByText(label, { selector: 'dt' });
  return within(term.parentElement!).getByRole('definition').textContent;
}

describe('StatCards', () => {
  it('shows the four counts under their labels', () => {
    const { statistics } = buildDashboard({ pending: 3, inProgress: 2, completed: 1 });
    render(<StatCards statistics={statistics} />);
    expect(valueOf('Total Tasks')).toBe('6');
    expect(valueOf('Pending Tasks')).toBe('3');
    expect(valueOf('In Progress Tasks')).toBe('2');
    expect(valueOf('Completed Tasks')).toBe('1');
  });

  it('separates thousands with commas', () => {
    const { statistics } = buildDashboard({ pending: 1200, inProgress: 34, completed: 1_000_000 });
    render(<StatCards statistics={statistics} />);
    expect(valueOf('Total Tasks')).toBe('1,001,234');
    expect(valueOf('Pending Tasks')).toBe('1,200');
    expect(valueOf('Completed Tasks')).toBe('1,000,000');
  });

  it('shows zeros rather than blanks for an empty workspace', () => {
    render(<StatCards statistics={buildDashboard().statistics} />);
    expect(screen.getAllByRole('definition').map((value) => value.textContent)).toEqual([
      '0',
      '0',
      '0',
      '0',
    ]);
  });

  it('opens the task list on the tab each count counts', () => {
    const { statistics } = buildDashboard({ pending: 2, inProgress: 1, completed: 4 });
    render(
      <MemoryRouter>
        <StatCards statistics={statistics} listPath="/admin/tasks" />
      </MemoryRouter>,
    );
    const href = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
    expect(href('Total Tasks: 7')).toBe('/admin/tasks');
    expect(href('Pending Tasks: 2')).toBe('/admin/tasks?status=Pending');
    expect(href('In Progress Tasks: 1')).toBe('/admin/tasks?status=In%20Progress');
    expect(href('Completed Tasks: 4')).toBe('/admin/tasks?status=Completed');
  });

  it('counts the overdue tasks on a fifth card that opens the list filtered to them', () => {
    const { statistics } = buildDashboard({ pending: 3 });
    render(
      <MemoryRouter>
        <StatCards
          statistics={{ ...statistics, overdueTasks: 2 }}
          overduePath="/admin/tasks?due=overdue"
        />
      </MemoryRouter>,
    );
    expect(valueOf('Overdue Tasks')).toBe('2');
    expect(screen.getByRole('link', { name: '2 overdue: open the list' })).toHaveAttribute(
      'href',
      '/admin/tasks?due=overdue',
    );
  });
});
